// ICUData has no interface: icudata.S only defines ICU's data entry symbol, which ICU's own code reads.
