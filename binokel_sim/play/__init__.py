"""Card play: the legal-move and trick rules (`legal`) shared by every player, and the double-dummy `solver`."""
