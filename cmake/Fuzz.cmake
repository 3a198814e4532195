# CGT_FUZZ: builds the libFuzzer target cgt-fuzz (tools/fuzz/), which needs
# clang's -fsanitize=fuzzer (configure with CMAKE_CXX_COMPILER=clang++-22).
# Off by default and meant for a build directory of its own (build-fuzz),
# usually with CGT_SANITIZE=address,undefined; every target of that build
# then carries libFuzzer's coverage instrumentation, which is why it is not
# the default build. docs/reliability.md says how to build and run it.
option(CGT_FUZZ "Build the libFuzzer target cgt-fuzz (clang only)" OFF)

if(CGT_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "CGT_FUZZ needs clang (-fsanitize=fuzzer); configure with "
                        "-DCMAKE_CXX_COMPILER=clang++-22")
  endif()
  # Coverage for every object of ours; the fuzzer's main only in cgt-fuzz.
  add_compile_options(-fsanitize=fuzzer-no-link)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-resource-dir
                  OUTPUT_VARIABLE CGT_CLANG_RESOURCE_DIR OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()

# Called from tools/CMakeLists.txt once the checks exist.
function(cgt_add_fuzz_target)
  set(Decls ${CMAKE_SOURCE_DIR}/tools/fuzz/cuda_decls.h)
  set(DeclsInc ${CMAKE_BINARY_DIR}/generated/CudaDeclsData.inc)
  add_custom_command(
    OUTPUT ${DeclsInc}
    COMMAND ${CMAKE_COMMAND} -DIN=${Decls} -DOUT=${DeclsInc}
            -P ${CMAKE_SOURCE_DIR}/cmake/EmbedFile.cmake
    DEPENDS ${Decls} ${CMAKE_SOURCE_DIR}/cmake/EmbedFile.cmake
    COMMENT "Embedding the fuzzer's CUDA declarations header")
  add_executable(cgt-fuzz ${CMAKE_SOURCE_DIR}/tools/fuzz/FuzzChecks.cpp ${DeclsInc}
                          $<TARGET_OBJECTS:cudagraph_checks>)
  target_include_directories(cgt-fuzz PRIVATE ${CMAKE_BINARY_DIR}/generated)
  target_compile_definitions(cgt-fuzz PRIVATE
                             CGT_CLANG_RESOURCE_DIR="${CGT_CLANG_RESOURCE_DIR}")
  target_link_libraries(cgt-fuzz PRIVATE cudagraph_analysis clangTidy clang-cpp LLVM)
  target_link_options(cgt-fuzz PRIVATE -fsanitize=fuzzer)
endfunction()
