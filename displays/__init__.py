"""The display manager: screens paired by code, what each shows (views that rotate), clock layouts,
and the screens' socket (docs/displays.md)."""
