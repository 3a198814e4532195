# lit configuration for cudagraph-tidy.
#
# Substitutions:
#   %check_cudagraph_tidy  runs a check through BOTH the clang-tidy-22 plugin and
#                          the standalone driver, FileChecks each output and
#                          requires them to report the same findings
#   %cudagraph_tidy        the standalone driver
#   %clang_tidy            Debian's clang-tidy-22
#   %plugin                build/lib/CudaGraphTidy.so
#   %cuda_args             the clang flags that parse CUDA 13 host code
#   %validate_sarif        validates SARIF logs: Microsoft's SARIF Multitool
#                          (installed into the build tree by scripts/setup.sh),
#                          the 2.1.0 schema and GitHub's needs (test/sarif/)
#   %sarif_tool            assertions about SARIF logs (test/sarif/)
import os
import lit.formats

site = lit_config.params.get("site")
if site:
    lit_config.load_config(config, site)
elif not hasattr(config, "cgt_build_dir"):
    here = os.path.dirname(os.path.abspath(__file__))
    lit_config.load_config(config, os.path.join(here, "..", "build", "test", "lit.site.cfg.py"))

config.name = "cudagraph-tidy"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".cu", ".cpp", ".test"]
config.excludes = ["Inputs", "unit", "CMakeLists.txt", "lit.cfg.py", "check_cudagraph_tidy.py"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = os.path.join(config.cgt_build_dir, "test")

plugin = os.path.join(config.cgt_build_dir, "lib", "CudaGraphTidy.so")
driver = os.path.join(config.cgt_build_dir, "bin", "cudagraph-tidy")
clang_tidy = os.path.join(config.llvm_tools_dir, "clang-tidy")
if getattr(config, "sanitizer_preload", ""):
    # A CGT_SANITIZE build (scripts/sanitize.sh): Debian's clang-tidy has no
    # ASan runtime, so it runs through a wrapper that preloads the one the
    # plugin was built against.
    os.makedirs(config.test_exec_root, exist_ok=True)
    wrapper = os.path.join(config.test_exec_root, "clang-tidy-sanitized")
    with open(wrapper, "w") as f:
        f.write('#!/bin/sh\nLD_PRELOAD="%s${LD_PRELOAD:+:$LD_PRELOAD}" exec "%s" "$@"\n'
                % (config.sanitizer_preload, clang_tidy))
    os.chmod(wrapper, 0o755)
    clang_tidy = wrapper
    # What a sanitized build links (the runtime's RPATH) is not what ships:
    # packaging tests say UNSUPPORTED: sanitized.
    config.available_features.add("sanitized")
cuda_args = ("-x cuda --cuda-host-only --cuda-path=%s -Wno-unknown-cuda-version -std=c++17"
             % config.cuda_path)
runner = os.path.join(config.test_source_root, "check_cudagraph_tidy.py")

sarif_dir = os.path.join(config.test_source_root, "sarif")
# First, so that %s does not take the front of %sarif_tool.
config.substitutions.insert(0, ("%validate_sarif", "%s %s --multitool %s" % (
    config.python, os.path.join(sarif_dir, "validate_sarif.py"), config.sarif_multitool)))
config.substitutions.insert(0, ("%sarif_tool", "%s %s" % (
    config.python, os.path.join(sarif_dir, "sarif_tool.py"))))
config.substitutions.append(("%check_cudagraph_tidy",
    "%s %s --plugin=%s --driver=%s --clang-tidy=%s --filecheck=%s --cuda-path=%s"
    % (config.python, runner, plugin, driver, clang_tidy,
       os.path.join(config.llvm_tools_dir, "FileCheck"), config.cuda_path)))
config.substitutions.append(("%cudagraph_tidy", driver))
config.substitutions.append(("%clang_tidy", clang_tidy))
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%cuda_args", cuda_args))
config.substitutions.append(("%cuda_path", config.cuda_path))
config.substitutions.append(("%python", config.python))
config.substitutions.append(("%srcroot", config.cgt_source_dir))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, os.path.join(config.cgt_build_dir, "bin"), config.environment.get("PATH", os.environ.get("PATH", ""))])
# The preamble cache stays out of the user's home and off unless a test
# turns it on (test/driver/preamble-cache.test): runs stay independent.
# CGT_TEST_PREAMBLE_CACHE=on runs the whole suite with the cache instead.
config.environment["XDG_CACHE_HOME"] = os.path.join(config.cgt_build_dir, "test", "xdg-cache")
config.environment["CUDAGRAPH_TIDY_PREAMBLE_CACHE"] = os.environ.get("CGT_TEST_PREAMBLE_CACHE", "off")
# The result cache likewise (test/driver/result-cache.test turns it on);
# CGT_TEST_RESULT_CACHE=on runs the whole suite with it.
config.environment["CUDAGRAPH_TIDY_RESULT_CACHE"] = os.environ.get("CGT_TEST_RESULT_CACHE", "off")
if os.path.isdir(os.path.join(config.cuda_path, "include")):
    config.available_features.add("cuda")
