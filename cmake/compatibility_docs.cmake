# The published compatibility matrix: docs/compatibility.html,
# docs/compatibility.md and the summary table of README.md (between its
# compatibility-summary markers), each made by `dlpack-usm report matrix`
# from every committed profile: the files the globs below match, so a new
# profile (another library, another machine) joins by being committed.
#
#   cmake -DBINARY=dlpack-usm -DSOURCE_DIR=. -DOUT=scratch -DMODE=write|check -P this
#
# MODE=write rewrites the three files (the target compatibility_docs);
# MODE=check makes them under OUT and fails naming each committed file that
# differs (the test compatibility_docs_up_to_date). The inputs are named
# relative to SOURCE_DIR and sorted, and the pages hold no time stamp: the
# same profiles make the same bytes on every machine.
cmake_minimum_required(VERSION 3.22)

set(profile_globs fixtures/consumer_profiles/*.json fixtures/profiles/*.json fixtures/pairs/*.json)
set(begin_marker "<!-- compatibility-summary:begin")
set(end_marker "<!-- compatibility-summary:end -->")

foreach(required BINARY SOURCE_DIR OUT MODE)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "compatibility_docs.cmake: -D${required}=... is missing")
  endif()
endforeach()

set(globs)
foreach(glob IN LISTS profile_globs)
  list(APPEND globs ${SOURCE_DIR}/${glob})
endforeach()
file(GLOB inputs RELATIVE ${SOURCE_DIR} LIST_DIRECTORIES false ${globs})
list(SORT inputs)
if(NOT inputs)
  message(FATAL_ERROR "compatibility_docs: no profile matches ${profile_globs} in ${SOURCE_DIR}")
endif()

file(MAKE_DIRECTORY ${OUT}/docs)
if(MODE STREQUAL "write")
  set(docs ${SOURCE_DIR}/docs)
elseif(MODE STREQUAL "check")
  set(docs ${OUT}/docs)
else()
  message(FATAL_ERROR "compatibility_docs.cmake: MODE is write or check, not ${MODE}")
endif()

function(render format output)
  execute_process(COMMAND ${BINARY} report matrix ${inputs} --format ${format} --output ${output}
    WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE status ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "dlpack-usm report matrix --format ${format} failed (${status}):\n${errors}")
  endif()
endfunction()

render(html ${docs}/compatibility.html)
render(md ${docs}/compatibility.md)
render(md-summary ${OUT}/summary.md)

# README.md with the summary between its markers replaced.
file(READ ${SOURCE_DIR}/README.md readme)
file(READ ${OUT}/summary.md summary)
string(FIND "${readme}" "${begin_marker}" begin)
string(FIND "${readme}" "${end_marker}" end)
if(begin EQUAL -1 OR end EQUAL -1 OR end LESS begin)
  message(FATAL_ERROR "README.md has no '${begin_marker} ... -->' line followed by "
    "'${end_marker}': put them where the summary table goes")
endif()
string(SUBSTRING "${readme}" ${begin} -1 from_begin)
string(FIND "${from_begin}" "\n" begin_line_length)
math(EXPR keep "${begin} + ${begin_line_length} + 1")
string(SUBSTRING "${readme}" 0 ${keep} head)
string(SUBSTRING "${readme}" ${end} -1 tail)
set(new_readme "${head}${summary}${tail}")

if(MODE STREQUAL "write")
  if(NOT new_readme STREQUAL readme)
    file(WRITE ${SOURCE_DIR}/README.md "${new_readme}")
  endif()
  message(STATUS "compatibility_docs: docs/compatibility.html, docs/compatibility.md and the "
    "README's summary made from ${inputs}")
  return()
endif()

set(stale)
foreach(page compatibility.html compatibility.md)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/docs/${page}
    ${SOURCE_DIR}/docs/${page} RESULT_VARIABLE differs)
  if(NOT differs EQUAL 0)
    list(APPEND stale docs/${page})
  endif()
endforeach()
if(NOT new_readme STREQUAL readme)
  list(APPEND stale "README.md (the summary between its compatibility-summary markers)")
endif()
if(stale)
  list(JOIN stale ", " stale_text)
  message(FATAL_ERROR "${stale_text}: not what 'dlpack-usm report matrix' makes of the committed "
    "profiles (${inputs}); the fresh ones are in ${OUT}. Run 'cmake --build build --target "
    "compatibility_docs' and commit the result.")
endif()
message(STATUS "compatibility_docs: the committed pages and the README's summary are up to date")
