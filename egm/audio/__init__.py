"""The audio controller (the patent's 230): cabinet sounds synthesised in code (`synth`), played on
the HAL speaker (`speaker`) with the configured volume and mute (`controller`)."""
