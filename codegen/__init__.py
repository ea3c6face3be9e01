"""codegen: Wick's binding generator, from declarations/*.yaml to generated/.

Pipeline: parse (yaml_loader) -> model (frozen dataclasses, validated) ->
emitters (dest/) -> write-if-changed (writer). See gen.py.
"""
