# Writes the contents of IN into OUT as a C++ raw string literal, so the API
# model JSON travels inside the binaries.
file(READ ${IN} CONTENT)
file(WRITE ${OUT} "R\"cgtjson(${CONTENT})cgtjson\"\n")
