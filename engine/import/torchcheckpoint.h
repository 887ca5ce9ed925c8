// TorchCheckpoint: the tensors of a PyTorch checkpoint (`torch.save(state_dict)`, the zip format
// PyTorch has written since 1.6, as Hugging Face's pytorch_model.bin files are, or the legacy
// format before it), read without executing anything.
//
// A checkpoint is a zip archive (stored, not compressed) holding `<archive>/data.pkl`, a pickle
// of the state dict, and `<archive>/data/<key>`, the raw bytes of each storage. Unpickling with
// Python runs whatever callables the pickle names (`GLOBAL os system` + `REDUCE` is a shell
// command), so this is not an unpickler: it is a small pickle machine that knows a whitelist of
// opcodes and of globals, and builds only dicts, lists, tuples, strings, numbers and tensor
// descriptions. The globals it accepts are the ones torch.save writes for a state dict:
// collections.OrderedDict, torch._utils._rebuild_tensor_v2 / _rebuild_parameter and the storage
// classes (torch.FloatStorage, ...); REDUCE is accepted only on the first three. Anything else
// is refused with a message naming the opcode or the global. The format PyTorch wrote before 1.6
// (a bare stream of pickles followed by the storages' bytes, not a zip; older hub uploads hold
// it) is read by the same machine. The fuzz harness tests/fuzz/fuzz_pickle.cpp runs
// readStateDictPickle on arbitrary bytes.
//
// Basic usage:
//     TorchCheckpoint checkpoint("opus-mt-en-es/pytorch_model.bin"); // throws PackageError
//     for (const std::string &name : checkpoint.names())
//         Tensor w = checkpoint.loadFloat(name);                       // fp32, contiguous
//
// Every error is a PackageError naming the file and, where there is one, the tensor.
#pragma once

#include "engine/packageerror.h"
#include "engine/tensor.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace glosa::engine {

// A tensor as the pickle describes it: which storage, its element type, and the view into it.
struct PickledTensor
{
    std::string storage;     // the storage key: its bytes are <archive>/data/<storage>
    std::string storageType; // "FloatStorage", "HalfStorage", ...
    std::int64_t storageElements = 0;
    std::int64_t offset = 0; // in elements
    Shape shape;
    std::vector<std::int64_t> stride; // in elements
};

// Runs the whitelisted pickle machine over `pickle` (the bytes of data.pkl) and returns the state
// dict it describes: name -> tensor. Throws PackageError naming `path` for anything outside the
// whitelist, a malformed stream, or a result that is not a dict of tensors.
std::map<std::string, PickledTensor> readStateDictPickle(std::string_view pickle,
                                                         const std::string &path);

class TorchCheckpoint
{
public:
    // Maps `path` and reads its zip directory and pickle; throws PackageError.
    explicit TorchCheckpoint(const std::string &path);
    ~TorchCheckpoint();

    const std::string &path() const { return m_path; }
    std::vector<std::string> names() const; // sorted
    bool contains(const std::string &name) const;
    // Throw PackageError when `name` is missing.
    Shape shape(const std::string &name) const;
    // An fp32 copy in fresh storage, gathered through the tensor's strides (F32, F16 and BF16
    // storages; other element types are a PackageError naming the tensor). Checks that every
    // element lies inside its storage and that all values are finite.
    Tensor loadFloat(const std::string &name) const;

private:
    struct Mapping;
    [[noreturn]] void fail(const std::string &tensor, const std::string &message) const;
    // The format PyTorch wrote before 1.6 (torch.save(..., _use_new_zipfile_serialization=False)).
    void readLegacy(std::string_view file);
    // Points each tensor at its storage's bytes, checking that they hold its elements.
    void attachStorages(const std::map<std::string, std::string_view> &storages);

    std::string m_path;
    std::shared_ptr<Mapping> m_mapping;
    std::map<std::string, PickledTensor> m_tensors;
    // Storage key -> its bytes in the mapping.
    std::map<std::string, std::string_view> m_storages;
};

} // namespace glosa::engine
