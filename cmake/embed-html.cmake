# SPDX-License-Identifier: GPL-2.0
# Writes OUT, a C file holding the HTML report's style and script
# (lt_html_css, lt_html_js: the files of DIR named in CSS and JS, "|"
# between names, joined in that order), so that every report carries
# them and fetches nothing.
# Run as: cmake -DDIR=... -DCSS=a.css -DJS="a.js|b.js" -DOUT=... -P embed-html.cmake
function(embed var files end_tag out_var)
	string(REPLACE "|" ";" files "${files}")
	set(hex "")
	foreach(f ${files})
		file(READ "${DIR}/${f}" part)
		# inside <script> or <style>, these would end the element early
		string(TOLOWER "${part}" lower)
		string(FIND "${lower}" "</${end_tag}" at)
		string(FIND "${lower}" "<!--" at2)
		if(NOT at EQUAL -1 OR NOT at2 EQUAL -1)
			message(FATAL_ERROR "${DIR}/${f}: holds </${end_tag} or <!--, "
				"which would break the page it is inlined in")
		endif()
		# as bytes: CMake's strings would take its ';' for list separators
		file(READ "${DIR}/${f}" part_hex HEX)
		string(APPEND hex "${part_hex}")
	endforeach()
	string(LENGTH "${hex}" hexlen)
	math(EXPR len "${hexlen} / 2")
	string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
	string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n\t" bytes "${bytes}")
	set(${out_var} "const char ${var}[] = {\n\t${bytes}0x00\n};\nconst size_t ${var}_len = ${len};\n" PARENT_SCOPE)
endfunction()

embed(lt_html_css "${CSS}" style css_c)
embed(lt_html_js "${JS}" script js_c)
file(WRITE "${OUT}.tmp" "/* Generated from analyzer/lib/writers/html/ by cmake/embed-html.cmake: do not edit. */\n#include <stddef.h>\n\n${css_c}\n${js_c}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
