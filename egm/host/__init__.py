"""The casino host link (SAS) below the cabinet: the exception queue, the meter mapping and the loop that
answers polls between frames. The cabinet's parts that answer the host are egm.cabinet.sas (with
egm.cabinet.tito and egm.cabinet.aft); see docs/sas.md."""
