# SPDX-License-Identifier: GPL-2.0
# Writes OUT, a C file holding the translation tables TRANS and SKIP, so
# latency-analyze explains stacks without any installed data file.
# Run as: cmake -DTRANS=... -DSKIP=... -DOUT=... -P embed-tables.cmake
function(embed var path out_var)
	if(EXISTS "${path}")
		file(READ "${path}" hex HEX)
	else()
		set(hex "")
	endif()
	string(LENGTH "${hex}" hexlen)
	math(EXPR len "${hexlen} / 2")
	string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
	# break the array into lines of 16 bytes
	string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n\t" bytes "${bytes}")
	set(${out_var} "const char ${var}[] = {\n\t${bytes}0x00\n};\nconst size_t ${var}_len = ${len};\n" PARENT_SCOPE)
endfunction()

embed(lt_builtin_trans "${TRANS}" trans_c)
embed(lt_builtin_skip "${SKIP}" skip_c)
file(WRITE "${OUT}.tmp" "/* Generated from plugins/ by cmake/embed-tables.cmake: do not edit. */\n#include <stddef.h>\n\n${trans_c}\n${skip_c}")
# only touch OUT when it changed, so builds stay incremental
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
