"""The cabinet's side of the casino host link (SAS): see egm.host.sas and docs/sas.md."""
