"""The exchange: candidate discards and trumps after the Tapp (`candidates`) and the policies that
choose one (`policy`)."""
