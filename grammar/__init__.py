"""The grammar of the fuda language, shipped inside the installed package as interpreter.grammar."""
