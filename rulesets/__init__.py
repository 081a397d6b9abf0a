"""The bundled rulesets, shipped inside the installed package as interpreter.rulesets."""
