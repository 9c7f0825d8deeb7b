"""Hand evaluation: bid ladders by simulation (`hand`), double-dummy batches (`dd`), the play studies
(`study`), hand features and the hand-point formula."""
