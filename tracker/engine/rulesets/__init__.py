"""The bundled rulesets: one TOML file per rule post (+ hooks.py for what data cannot say)."""
