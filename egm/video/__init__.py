"""The video controller (the patent's 220) and its scenes: the cabinet drawn with pygame in a window,
full screen or headless. `controller.VideoController` reads the cabinet and sends it events; each
screen is a `scene.Scene` in `scenes/`; `app` runs `egm emulate` / `egm kiosk`; `session` drives it
headless for `egm screenshot` and the tests. See docs/emulator.md."""
