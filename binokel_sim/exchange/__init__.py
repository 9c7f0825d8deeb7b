"""The exchange: candidate discards and trumps after the Tapp (`candidates`, `calling`), the policies that
choose one (`policy`, `partner`), and the one call above them (`views.exchange_views`)."""
