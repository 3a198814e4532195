//===- ReportStyle.cpp - which report format and colours a run gets -------===//
//
// "A terminal" is stdout being displayed and no -o file: a report written
// to a file is for tools, whatever the terminal the command ran in.
//
//===----------------------------------------------------------------------===//
#include "reports/ReportStyle.h"

#include "llvm/Support/Process.h"

namespace cgt {

llvm::cl::opt<std::string> &colorOption(llvm::cl::OptionCategory &Category) {
  // getRegisteredOptions() registers LLVM's common options first.
  auto &Registered = llvm::cl::getRegisteredOptions();
  auto It = Registered.find("color");
  if (It != Registered.end())
    It->second->removeArgument();
  static llvm::cl::opt<std::string> Color(
      "color",
      llvm::cl::desc("Colours in the text format: auto (default; when stdout "
                     "is a terminal), always, never"),
      llvm::cl::init("auto"), llvm::cl::cat(Category));
  return Color;
}

bool resolveReportStyle(const std::string &Format, const std::string &Color,
                        const std::string &OutputPath, ReportOptions &Out,
                        std::string &Error) {
  bool ToTerminal = (OutputPath.empty() || OutputPath == "-") &&
                    llvm::sys::Process::StandardOutIsDisplayed();
  if (Format.empty())
    Out.Format = ToTerminal ? "text" : "text-plain";
  else if (Format == "text" || Format == "text-plain" || Format == "sarif" ||
           Format == "codeclimate")
    Out.Format = Format;
  else {
    Error = "unknown --format '" + Format +
            "' (expected text, text-plain, sarif or codeclimate)";
    return false;
  }
  if (Color == "always")
    Out.Color = true;
  else if (Color == "never")
    Out.Color = false;
  else if (Color == "auto")
    Out.Color = ToTerminal && llvm::sys::Process::StandardOutHasColors();
  else {
    Error = "unknown --color '" + Color + "' (expected auto, always or never)";
    return false;
  }
  return true;
}

} // namespace cgt
