# CGT_SANITIZE: builds the plugin, the driver and the unit tests with the
# sanitizers named (a comma list, e.g. -DCGT_SANITIZE=address,undefined).
# Meant for a build directory of its own (scripts/sanitize.sh uses
# build-asan); the default build leaves it empty.
#
# Only our code is instrumented: LLVM and Clang come from Debian's shared
# libraries, which ASan and UBSan accept uninstrumented. The plugin runs
# inside Debian's clang-tidy-22, which has no ASan runtime of its own, so
# the runtime is linked as a shared library and CGT_SANITIZER_PRELOAD names
# the file the tests LD_PRELOAD into clang-tidy (test/lit.cfg.py).
set(CGT_SANITIZE "" CACHE STRING
    "Sanitizers to build with, comma separated (address,undefined); empty: none")

if(NOT CGT_SANITIZE STREQUAL "")
  set(_cgt_san_flags -fsanitize=${CGT_SANITIZE} -fno-omit-frame-pointer -g1)
  if(CGT_SANITIZE MATCHES "undefined")
    # A UBSan report fails the test that caused it instead of scrolling by.
    list(APPEND _cgt_san_flags -fno-sanitize-recover=all)
  endif()
  set(CGT_SANITIZER_PRELOAD "")
  if(CGT_SANITIZE MATCHES "address")
    if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
      set(_cgt_rt libclang_rt.asan-x86_64.so)
    else()
      set(_cgt_rt libasan.so)
    endif()
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${_cgt_rt}
                    OUTPUT_VARIABLE CGT_SANITIZER_PRELOAD OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT EXISTS "${CGT_SANITIZER_PRELOAD}")
      message(FATAL_ERROR "CGT_SANITIZE=${CGT_SANITIZE}: no shared ASan runtime found "
                          "(${CGT_SANITIZER_PRELOAD})")
    endif()
  endif()

  set(_cgt_san_link -fsanitize=${CGT_SANITIZE})
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND CGT_SANITIZE MATCHES "address"
     AND NOT CGT_FUZZ)
    # clang links ASan statically into executables by default; the plugin,
    # dlopen()ed by an uninstrumented clang-tidy, needs the shared runtime,
    # and executables must then share it (found through their rpath).
    get_filename_component(_cgt_rt_dir ${CGT_SANITIZER_PRELOAD} DIRECTORY)
    list(APPEND _cgt_san_link -shared-libasan -Wl,-rpath,${_cgt_rt_dir})
  endif()
  add_compile_options(${_cgt_san_flags})
  add_link_options(${_cgt_san_link})
  message(STATUS "cudagraph-tidy: sanitizers ${CGT_SANITIZE}; preload '${CGT_SANITIZER_PRELOAD}'")
endif()
