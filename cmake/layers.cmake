# The layers of src/ as CMake libraries: each folder of a layer (the order of
# tests/layers/check_layers.py, lowest first) is one static library, linked
# to the layer just below it and through it to the rest below; never to one
# above. The include test (ctest `layers`) keeps every #include pointing
# down; the linker keeps every symbol pointing down: each layer is also
# linked, whole, into a shared object with -Wl,--no-undefined against the
# layers below it alone (dlpack_usm_<layer>_links, built with the tests), so
# a function a layer calls from a layer above it fails the build, naming the
# symbol and the object that calls it.

# The compile settings every layer shares (the precompiled header of the
# lowest layer is reused by the others, so the flags must not differ).
function(dlpack_usm_layer_settings target)
  target_compile_options(${target} PRIVATE ${DLPACK_USM_WARNINGS})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON
    UNITY_BUILD ${DLPACK_USM_UNITY_BUILD} UNITY_BUILD_BATCH_SIZE ${DLPACK_USM_UNITY_BATCH_SIZE})
endfunction()

# dlpack_usm_layers(FOLDER...): one library a folder, in order, named
# dlpack_usm_<folder> with '/' as '_' (suite/model: dlpack_usm_suite_model);
# DLPACK_USM_TOP_LAYER names the last.
function(dlpack_usm_layers)
  set(below "")
  foreach(folder IN LISTS ARGN)
    string(REPLACE "/" "_" name ${folder})
    set(target dlpack_usm_${name})
    file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${folder}/*.cpp)
    add_library(${target} STATIC ${sources})
    dlpack_usm_layer_settings(${target})
    if(below)
      target_link_libraries(${target} PUBLIC ${below})
      target_precompile_headers(${target} REUSE_FROM dlpack_usm_common)
    else()
      target_precompile_headers(${target} PRIVATE ${DLPACK_USM_PRECOMPILED_HEADERS})
    endif()
    set(below ${target})
  endforeach()
  set(DLPACK_USM_TOP_LAYER ${below} PARENT_SCOPE)
endfunction()

# dlpack_usm_layer_links(FOLDER...): the link check of each layer above.
function(dlpack_usm_layer_links)
  set(empty ${PROJECT_BINARY_DIR}/generated/layer_links.cpp)
  file(WRITE ${empty} "// A layer linked whole into a shared object (cmake/layers.cmake).\n")
  foreach(folder IN LISTS ARGN)
    string(REPLACE "/" "_" name ${folder})
    add_library(dlpack_usm_${name}_links SHARED ${empty})
    # The layer's every object, then what it links: the layers below it.
    target_link_libraries(dlpack_usm_${name}_links PRIVATE
      -Wl,--whole-archive dlpack_usm_${name} -Wl,--no-whole-archive)
    target_link_options(dlpack_usm_${name}_links PRIVATE -Wl,--no-undefined)
  endforeach()
endfunction()
