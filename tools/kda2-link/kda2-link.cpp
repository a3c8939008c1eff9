//===- kda2-link.cpp - bundle cubins into one shared library ----*- C++ -*-===//
//
// Turns kda2 cubins (one per shape specialisation and per chip) into one
// shared library that depends only on libkda2rt: a generated C file embeds
// the images and the dispatch table, registers them with libkda2rt from a
// constructor and exports the bundle's C ABI (docs/Bundle.md). The host C
// compiler builds it with -shared -fPIC and strips it. The tool checks the
// inputs first, offline: files readable, kernels present in their images,
// their embedded metadata valid and using the dispatch dimension, no
// duplicate specialisation.
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/Dispatch.h"
#include "kda2/Runtime/Module.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace llvm;
namespace rt = kda2::runtime;

#ifndef KDA2_LINK_DEFAULT_INCLUDE
#define KDA2_LINK_DEFAULT_INCLUDE ""
#endif
#ifndef KDA2_LINK_DEFAULT_LIBDIR
#define KDA2_LINK_DEFAULT_LIBDIR ""
#endif

static cl::OptionCategory category("kda2-link options");
static cl::list<std::string> inputs(cl::Positional,
                                    cl::desc("[<cubin> ...]"),
                                    cl::cat(category));
static cl::opt<std::string> output("o", cl::desc("output shared library"),
                                   cl::value_desc("lib.so"), cl::Required,
                                   cl::cat(category));
static cl::opt<std::string>
    manifest("manifest", cl::desc("bundle manifest (docs/Bundle.md)"),
             cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string>
    bundleName("name",
               cl::desc("bundle name (default: the manifest's, else the "
                        "output file's stem)"),
               cl::cat(category));
static cl::opt<std::string>
    chipOpt("chip",
            cl::desc("chip of positional cubins (default: from the file name "
                     "<name>.<chip>.cubin)"),
            cl::cat(category));
static cl::opt<std::string>
    dimOpt("dim", cl::desc("dispatch dimension of positional cubins' ops"),
           cl::init("t"), cl::cat(category));
static cl::opt<std::string> cc("cc", cl::desc("host C compiler"),
                               cl::init("cc"), cl::cat(category));
static cl::opt<std::string>
    includeDir("kda2rt-include",
               cl::desc("directory holding kda2/Runtime/kda2rt.h"),
               cl::cat(category));
static cl::opt<std::string>
    libDir("kda2rt-lib", cl::desc("directory holding libkda2rt.so"),
           cl::cat(category));
static cl::opt<std::string>
    rpath("rpath",
          cl::desc("run-time search path for libkda2rt (default: the "
                   "--kda2rt-lib directory; empty: none; $ORIGIN works)"),
          cl::cat(category));
static cl::opt<std::string>
    emitSource("emit-source", cl::desc("also write the generated C file here"),
               cl::value_desc("file.c"), cl::cat(category));
static cl::opt<bool> noStrip("no-strip", cl::desc("do not strip the library"),
                             cl::cat(category));
static cl::opt<bool> sourceOnly("source-only",
                                cl::desc("write the C file (--emit-source) "
                                         "and stop: no compiler needed"),
                                cl::cat(category));
static cl::opt<bool> verbose("v", cl::desc("print the compiler command"),
                             cl::cat(category));

namespace {

bool fail(const Twine &message) {
  WithColor::error(errs(), "kda2-link") << message << "\n";
  return false;
}

/// One input image and what was found in it.
struct Image {
  std::string path;
  std::string chip;
  std::unique_ptr<MemoryBuffer> data;
  std::vector<std::string> kernels;            // __kda2_meta_ names
  std::map<std::string, rt::KernelInfo> infos; // embedded metadata, parsed
};

struct Link {
  std::string name;
  std::vector<Image> images;
  std::vector<rt::DispatchEntry> entries;
  std::map<std::string, std::string> dims; // op -> dispatch dim
};

/// Metadata texts embedded verbatim in an image (a cubin keeps the
/// __kda2_meta_ byte arrays in .nv.global.init): every NUL-terminated run
/// starting with the version line.
void scanEmbeddedMetadata(Image &image) {
  StringRef bytes = image.data->getBuffer();
  std::string header = std::string(rt::kMetadataVersion) + "\n";
  size_t pos = 0;
  while ((pos = bytes.find(header, pos)) != StringRef::npos) {
    size_t end = bytes.find('\0', pos);
    StringRef text = bytes.slice(pos, end);
    rt::KernelInfo info;
    if (rt::parseKernelMetadata(text.str(), info).ok())
      image.infos[info.name] = info;
    pos += header.size();
  }
}

bool readImage(StringRef path, StringRef chip, Link &link, size_t &index) {
  for (size_t i = 0; i < link.images.size(); ++i)
    if (link.images[i].path == path) {
      if (link.images[i].chip != chip)
        return fail("image '" + path + "' is listed for " +
                    link.images[i].chip + " and " + chip);
      index = i;
      return true;
    }
  rt::Chip parsed;
  if (!rt::Chip::parse(chip, parsed))
    return fail("image '" + path + "': bad chip '" + chip +
                "' (expected sm_<major><minor>[a], e.g. sm_90a)");
  auto buffer = MemoryBuffer::getFile(path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!buffer)
    return fail("cannot read cubin '" + path +
                "': " + buffer.getError().message());
  if ((*buffer)->getBufferSize() == 0)
    return fail("cubin '" + path + "' is empty");
  Image image;
  image.path = path.str();
  image.chip = chip.str();
  image.data = std::move(*buffer);
  image.kernels = rt::scanKernelNames(image.data->getBufferStart(),
                                      image.data->getBufferSize());
  scanEmbeddedMetadata(image);
  index = link.images.size();
  link.images.push_back(std::move(image));
  return true;
}

/// Checks that `kernel` is in image `index` and, for a specialisation, has
/// the dispatch dimension `dim` (a generic kernel takes every length).
bool checkKernel(const Link &link, size_t index, StringRef kernel,
                 StringRef dim, bool generic, StringRef where) {
  const Image &image = link.images[index];
  if (!llvm::is_contained(image.kernels, kernel.str()))
    return fail(where + "kernel '" + kernel + "' is not in '" + image.path +
                "'; available: " +
                (image.kernels.empty() ? std::string("none")
                                       : llvm::join(image.kernels, ", ")));
  auto info = image.infos.find(kernel.str());
  if (info == image.infos.end() || generic)
    return true; // metadata not readable offline (e.g. compressed fatbin)
  std::vector<std::string> dims = info->second.dimNames();
  if (!llvm::is_contained(dims, dim.str()))
    return fail(where + "kernel '" + kernel + "' has no dimension '" + dim +
                "' to dispatch on; its dimensions: " +
                (dims.empty() ? std::string("none") : llvm::join(dims, ", ")));
  return true;
}

bool addEntry(Link &link, rt::DispatchEntry entry, StringRef where) {
  rt::Status s = [&] {
    rt::DispatchTable table;
    for (const rt::DispatchEntry &e : link.entries)
      (void)table.add(e);
    return table.add(entry);
  }();
  if (!s.ok())
    return fail(where + s.message());
  link.entries.push_back(std::move(entry));
  return true;
}

bool parseLength(StringRef text, int64_t &out) {
  if (text == "inf") {
    out = rt::kMaxLength;
    return true;
  }
  return !text.getAsInteger(10, out) && out >= 0;
}

/// The manifest (docs/Bundle.md):
///   kda2-bundle-v1
///   name <bundle>
///   dim <op> <dimension>
///   kernel <op> <chip> <N|LO..HI|LO..inf|generic> <file> [<kernel>]
///   end
bool readManifest(StringRef path, Link &link) {
  auto buffer = MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return fail("cannot read manifest '" + path +
                "': " + buffer.getError().message());
  SmallString<256> dir(path);
  sys::path::remove_filename(dir);
  struct Pending {
    rt::DispatchEntry entry;
    std::string file;
    std::string where;
  };
  std::vector<Pending> pending;
  SmallVector<StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  bool sawHeader = false, sawEnd = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string where = (path + ":" + Twine(i + 1) + ": ").str();
    StringRef line = lines[i].trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    if (sawEnd)
      return fail(where + "text after 'end'");
    SmallVector<StringRef> f;
    line.split(f, ' ', -1, /*KeepEmpty=*/false);
    if (!sawHeader) {
      if (line != "kda2-bundle-v1")
        return fail(where + "expected 'kda2-bundle-v1' as the first line");
      sawHeader = true;
      continue;
    }
    if (f[0] == "end") {
      sawEnd = true;
    } else if (f[0] == "name" && f.size() == 2) {
      link.name = f[1].str();
    } else if (f[0] == "dim" && f.size() == 3) {
      if (link.dims.count(f[1].str()))
        return fail(where + "second 'dim' line for op '" + f[1] + "'");
      link.dims[f[1].str()] = f[2].str();
    } else if (f[0] == "kernel" && (f.size() == 5 || f.size() == 6)) {
      Pending p;
      p.where = where;
      p.entry.op = f[1].str();
      p.entry.chip = f[2].str();
      StringRef range = f[3];
      if (range == "generic") {
        p.entry.generic = true;
      } else {
        auto [lo, hi] = range.split("..");
        if (!range.contains(".."))
          hi = lo;
        if (!parseLength(lo, p.entry.minLength) ||
            !parseLength(hi, p.entry.maxLength) || lo == "inf")
          return fail(where + "bad length range '" + range +
                      "' (N, LO..HI, LO..inf or generic)");
      }
      SmallString<256> file(f[4]);
      if (sys::path::is_relative(file) && !dir.empty())
        sys::path::make_absolute(dir, file);
      p.file = file.str().str();
      p.entry.kernel = (f.size() == 6 ? f[5] : f[1]).str();
      pending.push_back(std::move(p));
    } else {
      return fail(where + "unknown or malformed line '" + line +
                  "' (expected name, dim, kernel or end)");
    }
  }
  if (!sawHeader)
    return fail(path + ": empty manifest (expected 'kda2-bundle-v1')");
  if (!sawEnd)
    return fail(path + ": missing 'end'");
  if (pending.empty())
    return fail(path + ": no 'kernel' lines");
  for (Pending &p : pending) {
    auto dim = link.dims.find(p.entry.op);
    p.entry.dim = dim == link.dims.end() ? "t" : dim->second;
    size_t index = 0;
    if (!readImage(p.file, p.entry.chip, link, index))
      return false;
    p.entry.image = index;
    if (!checkKernel(link, index, p.entry.kernel, p.entry.dim,
                     p.entry.generic, p.where) ||
        !addEntry(link, p.entry, p.where))
      return false;
  }
  return true;
}

/// A positional cubin: each kernel that is not a `variant` copy of another
/// becomes the generic kernel of an op of its name.
bool addPositional(StringRef path, Link &link) {
  std::string chip = chipOpt;
  if (chip.empty()) {
    StringRef stem = sys::path::stem(path); // name.sm_90a
    StringRef ext = sys::path::extension(stem); // ".sm_90a" or ""
    chip = ext.empty() ? "" : ext.drop_front().str();
    rt::Chip parsed;
    if (!rt::Chip::parse(chip, parsed))
      return fail("cannot tell the chip of '" + path +
                  "' from its name (expected <name>.<chip>.cubin, e.g. "
                  "kda_decode.sm_90a.cubin); use --chip or a manifest");
  }
  size_t index = 0;
  if (!readImage(path, chip, link, index))
    return false;
  const Image &image = link.images[index];
  std::set<std::string> copies;
  for (const auto &[name, info] : image.infos)
    for (const rt::VariantInfo &v : info.variants)
      copies.insert(v.kernel);
  size_t added = 0;
  for (const std::string &kernel : image.kernels) {
    if (copies.count(kernel))
      continue;
    rt::DispatchEntry e;
    e.op = kernel;
    e.dim = dimOpt;
    e.chip = chip;
    e.kernel = kernel;
    e.generic = true;
    e.image = index;
    std::string where = (path + ": ").str();
    if (!checkKernel(link, index, kernel, dimOpt, /*generic=*/true, where) ||
        !addEntry(link, e, where))
      return false;
    ++added;
  }
  if (!added)
    return fail("no kda2 kernel (no __kda2_meta_ symbol) in '" + path + "'");
  return true;
}

std::string cString(StringRef s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20)
      out += "?";
    else
      out += c;
  }
  return out + "\"";
}

void writeSource(const Link &link, raw_ostream &os) {
  os << "/* Generated by kda2-link: bundle '" << link.name
     << "' (docs/Bundle.md). */\n"
     << "#include \"kda2/Runtime/kda2rt.h\"\n\n"
     << "#include <string.h>\n\n"
     << "#define KDA2_EXPORT __attribute__((visibility(\"default\")))\n\n";
  for (size_t i = 0; i < link.images.size(); ++i) {
    StringRef bytes = link.images[i].data->getBuffer();
    std::string path = link.images[i].path;
    for (size_t p = path.find("*/"); p != std::string::npos;
         p = path.find("*/", p))
      path.replace(p, 2, "* /");
    os << "/* " << path << " */\n"
       << "static const unsigned char kda2_image_" << i << "[" << bytes.size()
       << "] __attribute__((aligned(64))) =";
    for (size_t j = 0; j < bytes.size(); ++j) {
      if (j % 32 == 0)
        os << "\n  \"";
      os << '\\' << format("%03o", static_cast<unsigned char>(bytes[j]));
      if (j % 32 == 31 || j + 1 == bytes.size())
        os << "\"";
    }
    os << ";\n\n";
  }
  os << "static const kda2rt_bundle_image kda2_images[] = {\n";
  for (size_t i = 0; i < link.images.size(); ++i)
    os << "  {" << cString(sys::path::filename(link.images[i].path)) << ", "
       << cString(link.images[i].chip) << ", kda2_image_" << i
       << ", sizeof(kda2_image_" << i << ")},\n";
  os << "};\n\nstatic const kda2rt_bundle_entry kda2_entries[] = {\n";
  for (const rt::DispatchEntry &e : link.entries)
    os << "  {" << cString(e.op) << ", " << cString(e.dim) << ", "
       << cString(e.chip) << ", " << cString(e.kernel) << ", "
       << e.minLength << "LL, " << e.maxLength << "LL, "
       << (e.generic ? 1 : 0) << ", " << e.image << "},\n";
  os << "};\n\n"
     << "static const kda2rt_bundle_desc kda2_desc = {\n"
     << "  KDA2RT_BUNDLE_ABI_VERSION, " << cString(link.name) << ",\n"
     << "  " << link.images.size() << ", kda2_images, " << link.entries.size()
     << ", kda2_entries};\n\n";
  os << R"(static kda2rt_bundle kda2_handle;
static int kda2_status = KDA2RT_ERROR_INVALID_ARGUMENT;
static char kda2_error[1024] = "bundle constructor did not run";

__attribute__((constructor)) static void kda2_bundle_load(void) {
  kda2_status = kda2rt_bundle_register(&kda2_desc, &kda2_handle, kda2_error,
                                       sizeof(kda2_error));
}

__attribute__((destructor)) static void kda2_bundle_unload(void) {
  if (kda2_handle)
    kda2rt_bundle_unregister(kda2_handle, NULL, 0);
  kda2_handle = NULL;
}

/* Registration failed: its code, its message in err. */
static int kda2_not_registered(char *err, size_t errlen) {
  if (err && errlen) {
    strncpy(err, kda2_error, errlen - 1);
    err[errlen - 1] = '\0';
  }
  return kda2_status;
}

KDA2_EXPORT int kda2_bundle_handle(kda2rt_bundle *out, char *err,
                                   size_t errlen) {
  if (out)
    *out = kda2_handle;
  if (!kda2_handle)
    return kda2_not_registered(err, errlen);
  if (err && errlen)
    err[0] = '\0';
  return KDA2RT_OK;
}

KDA2_EXPORT const char *kda2_bundle_info(void) {
  return kda2_handle ? kda2rt_bundle_describe(kda2_handle) : kda2_error;
}

KDA2_EXPORT int kda2_bundle_select(int device, const char *op, int64_t length,
                                   kda2rt_kernel *out, char *err,
                                   size_t errlen) {
  if (!kda2_handle)
    return kda2_not_registered(err, errlen);
  return kda2rt_bundle_select(kda2_handle, device, op, length, out, err,
                              errlen);
}

KDA2_EXPORT int kda2_bundle_launch(int device, const char *op,
                                   const char **ptr_names, void *const *ptrs,
                                   int nptr, const char **dim_names,
                                   const int64_t *dims, int ndim,
                                   const char **scalar_names,
                                   const double *scalars, int nscalar,
                                   void *stream, char *err, size_t errlen) {
  if (!kda2_handle)
    return kda2_not_registered(err, errlen);
  return kda2rt_bundle_launch(kda2_handle, device, op, ptr_names, ptrs, nptr,
                              dim_names, dims, ndim, scalar_names, scalars,
                              nscalar, stream, err, errlen);
}

KDA2_EXPORT int kda2_bundle_kda_decode(int device, const char *op,
                                       const kda2rt_kda_decode_args *args,
                                       void *stream, char *err,
                                       size_t errlen) {
  if (!kda2_handle)
    return kda2_not_registered(err, errlen);
  return kda2rt_bundle_kda_decode(kda2_handle, device, op, args, stream, err,
                                  errlen);
}
)";
}

/// The first of `candidates` holding `file`, else "".
std::string firstDirWith(std::initializer_list<std::string> candidates,
                         StringRef file) {
  for (const std::string &dir : candidates) {
    if (dir.empty())
      continue;
    SmallString<256> p(dir);
    sys::path::append(p, file);
    if (sys::fs::exists(p))
      return dir;
  }
  return "";
}

bool compile(const Link &link, StringRef source) {
  std::string exe = sys::fs::getMainExecutable("kda2-link", (void *)&compile);
  SmallString<256> prefix(sys::path::parent_path(sys::path::parent_path(exe)));
  std::string installedInclude = (prefix + "/include").str();
  std::string installedLib = (prefix + "/lib").str();
  std::string inc = includeDir.empty()
                        ? firstDirWith({installedInclude,
                                        KDA2_LINK_DEFAULT_INCLUDE},
                                       "kda2/Runtime/kda2rt.h")
                        : includeDir.getValue();
  std::string lib = libDir.empty()
                        ? firstDirWith({installedLib, KDA2_LINK_DEFAULT_LIBDIR},
                                       "libkda2rt.so")
                        : libDir.getValue();
  if (inc.empty())
    return fail("cannot find kda2/Runtime/kda2rt.h; pass --kda2rt-include");
  if (lib.empty())
    return fail("cannot find libkda2rt.so; pass --kda2rt-lib");
  auto compiler = sys::findProgramByName(cc);
  if (!compiler || !sys::fs::can_execute(*compiler))
    return fail("host C compiler '" + cc + "' not found (--cc names one)");
  std::string run = rpath.getNumOccurrences() ? rpath.getValue() : lib;
  std::vector<std::string> args = {
      *compiler, "-std=c11", "-O2", "-fPIC", "-shared",
      "-fvisibility=hidden", "-I" + inc, source.str(), "-o", output,
      "-L" + lib, "-lkda2rt", "-Wl,-Bsymbolic", "-Wl,--no-undefined",
      "-Wl,-soname," + sys::path::filename(output).str()};
  if (!run.empty())
    args.push_back("-Wl,-rpath," + run);
  if (!noStrip)
    args.push_back("-s");
  if (verbose)
    errs() << llvm::join(args, " ") << "\n";
  std::vector<StringRef> refs(args.begin(), args.end());
  std::string message;
  int rc = sys::ExecuteAndWait(*compiler, refs, std::nullopt, {}, 0, 0,
                               &message);
  if (rc != 0)
    return fail("'" + cc + "' failed" +
                (message.empty() ? "" : ": " + message) + " (exit code " +
                Twine(rc) + ") building '" + output + "' of bundle '" +
                link.name + "'");
  return true;
}

bool run() {
  Link link;
  if (!manifest.empty() && !readManifest(manifest, link))
    return false;
  for (const std::string &input : inputs)
    if (!addPositional(input, link))
      return false;
  if (link.entries.empty())
    return fail("no input: give cubins or --manifest");
  if (!bundleName.empty())
    link.name = bundleName;
  if (link.name.empty()) {
    StringRef stem = sys::path::stem(output);
    stem.consume_front("lib");
    link.name = stem.str();
  }
  SmallString<128> source;
  int fd = -1;
  if (!emitSource.empty()) {
    source = emitSource;
    if (std::error_code ec = sys::fs::openFileForWrite(source, fd))
      return fail("cannot write '" + emitSource + "': " + ec.message());
  } else if (std::error_code ec =
                 sys::fs::createTemporaryFile("kda2-link", "c", fd, source)) {
    return fail("cannot create a temporary file: " + ec.message());
  }
  {
    raw_fd_ostream os(fd, /*shouldClose=*/true);
    writeSource(link, os);
  }
  if (sourceOnly) {
    if (emitSource.empty())
      (void)sys::fs::remove(source);
    return emitSource.empty() ? fail("--source-only needs --emit-source")
                              : true;
  }
  bool ok = compile(link, source);
  if (emitSource.empty())
    (void)sys::fs::remove(source);
  if (!ok)
    return false;
  uint64_t size = 0, imageBytes = 0;
  if (std::error_code ec = sys::fs::file_size(output, size))
    return fail("cannot stat '" + output + "': " + ec.message());
  for (const Image &image : link.images)
    imageBytes += image.data->getBufferSize();
  outs() << formatv("kda2-link: wrote {0}: {1} bytes (bundle '{2}': {3} "
                    "image(s), {4} bytes of kernels, {5} table entries)\n",
                    output, size, link.name, link.images.size(), imageBytes,
                    link.entries.size());
  return true;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "kda2-link: bundle kda2 cubins into one shared library (docs/Bundle.md)\n"
      "\n  kda2-link -o libkda.so --manifest kernels.manifest\n"
      "  kda2-link -o libkda.so kda_decode_k128.sm_90a.cubin ...\n");
  return run() ? 0 : 1;
}
