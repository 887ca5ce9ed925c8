#include "engine/import/torchcheckpoint.h"

#include "engine/limits.h"
#include "engine/regularfile.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <optional>
#include <set>
#include <unordered_map>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace glosa::engine {

namespace {

constexpr auto kMaxPickleBytes = static_cast<std::size_t>(limits::kMaxPickleBytes);
constexpr auto kMaxPickleObjects = static_cast<std::size_t>(limits::kMaxPickleObjects);

struct StorageClass
{
    const char *name;
    std::size_t elementSize;
};
// torch.save names a storage by its legacy typed class (torch/storage.py _pickle_storage_type).
constexpr StorageClass kStorageClasses[] = {
    {"FloatStorage", 4}, {"HalfStorage", 2}, {"BFloat16Storage", 2}, {"DoubleStorage", 8},
    {"LongStorage", 8},  {"IntStorage", 4},  {"ShortStorage", 2},    {"CharStorage", 1},
    {"ByteStorage", 1},  {"BoolStorage", 1}};

const StorageClass *storageClass(const std::string &name)
{
    for (const StorageClass &c : kStorageClasses)
        if (name == c.name)
            return &c;
    return nullptr;
}

// --- The pickle machine ----------------------------------------------------------------------

enum class Kind : std::uint8_t {
    None,
    Bool,
    Int,
    Float,
    String,
    Tuple,
    List,
    Dict,
    Global,
    Storage,
    Tensor
};

enum class Callable : std::uint8_t { None, OrderedDict, RebuildTensor, RebuildParameter, Storage };

struct Object
{
    Kind kind = Kind::None;
    Callable callable = Callable::None; // Global
    std::int64_t integer = 0;           // Int, Bool; Storage: elements
    std::string text;                   // String; Global: "module.name"; Storage: key
    std::string storageType;            // Storage, Global of a storage class
    std::vector<std::size_t> items;     // Tuple, List; Dict: key, value, key, value, ...
    std::size_t tensor = 0;             // Tensor: index into Machine::tensors
};

const char *kindName(Kind kind)
{
    switch (kind) {
    case Kind::None:
        return "None";
    case Kind::Bool:
        return "a boolean";
    case Kind::Int:
        return "an integer";
    case Kind::Float:
        return "a float";
    case Kind::String:
        return "a string";
    case Kind::Tuple:
        return "a tuple";
    case Kind::List:
        return "a list";
    case Kind::Dict:
        return "a dict";
    case Kind::Global:
        return "a global";
    case Kind::Storage:
        return "a storage";
    case Kind::Tensor:
        return "a tensor";
    }
    return "?";
}

class Machine
{
public:
    Machine(std::string_view bytes, const std::string &path) : m_bytes(bytes), m_path(path) {}

    std::map<std::string, PickledTensor> run()
    {
        if (m_bytes.size() > kMaxPickleBytes)
            fail("data.pkl is " + std::to_string(m_bytes.size()) +
                 " bytes, more than the limit of " + std::to_string(kMaxPickleBytes));
        runToStop();
        return result();
    }

    // Runs to STOP and returns the one value left. The legacy format's pickles follow one another
    // in one stream, so consumed() says where the next one starts.
    const Object &runToStop()
    {
        while (true) {
            const std::size_t at = m_at;
            const auto op = static_cast<unsigned char>(take(1)[0]);
            if (op == '.') // STOP
                break;
            step(op, at);
        }
        if (m_stack.size() != 1 || !m_marks.empty())
            fail("the pickle stops with " + std::to_string(m_stack.size()) +
                 " values on its stack, expected one");
        return m_objects[m_stack.back()];
    }
    std::size_t consumed() const { return m_at; }
    const Object &objectAt(std::size_t index) const { return m_objects[index]; }

private:
    [[noreturn]] void fail(const std::string &message) const
    {
        throw PackageError(m_path, {}, "pytorch_model.bin: " + message);
    }

    std::string_view take(std::size_t n)
    {
        if (n > m_bytes.size() - m_at)
            fail("the pickle ends in the middle of an opcode at byte " + std::to_string(m_at) +
                 " (a truncated file?)");
        const std::string_view out = m_bytes.substr(m_at, n);
        m_at += n;
        return out;
    }
    std::uint64_t littleEndian(std::size_t n)
    {
        const std::string_view b = take(n);
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < n; ++i)
            v |= std::uint64_t(static_cast<unsigned char>(b[i])) << (8 * i);
        return v;
    }
    std::string line()
    {
        const std::size_t end = m_bytes.find('\n', m_at);
        if (end == std::string_view::npos || end - m_at > 256)
            fail("a GLOBAL opcode without its newline-terminated name");
        std::string out(m_bytes.substr(m_at, end - m_at));
        m_at = end + 1;
        return out;
    }

    std::size_t make(Object object)
    {
        if (m_objects.size() >= kMaxPickleObjects)
            fail("more than " + std::to_string(kMaxPickleObjects) + " objects");
        m_objects.push_back(std::move(object));
        return m_objects.size() - 1;
    }
    void push(std::size_t object) { m_stack.push_back(object); }
    std::size_t pop()
    {
        if (m_stack.size() <= (m_marks.empty() ? 0 : m_marks.back()))
            fail("an opcode pops from an empty stack");
        const std::size_t top = m_stack.back();
        m_stack.pop_back();
        return top;
    }
    std::size_t top()
    {
        if (m_stack.size() <= (m_marks.empty() ? 0 : m_marks.back()))
            fail("an opcode reads from an empty stack");
        return m_stack.back();
    }
    // Everything above the last MARK, which is removed.
    std::vector<std::size_t> popMark()
    {
        if (m_marks.empty())
            fail("an opcode needs a MARK that is not there");
        const std::size_t mark = m_marks.back();
        m_marks.pop_back();
        std::vector<std::size_t> items(m_stack.begin() + static_cast<std::ptrdiff_t>(mark),
                                       m_stack.end());
        m_stack.resize(mark);
        return items;
    }
    Object &object(std::size_t index) { return m_objects[index]; }
    Object &expect(std::size_t index, Kind kind, const char *what)
    {
        Object &o = m_objects[index];
        if (o.kind != kind)
            fail(std::string(what) + " is " + kindName(o.kind) + ", expected " + kindName(kind));
        return o;
    }
    std::size_t makeInt(std::int64_t value, Kind kind = Kind::Int)
    {
        Object o;
        o.kind = kind;
        o.integer = value;
        return make(std::move(o));
    }
    std::size_t makeString(std::string_view text)
    {
        Object o;
        o.kind = Kind::String;
        o.text = std::string(text);
        return make(std::move(o));
    }
    std::size_t makeContainer(Kind kind, std::vector<std::size_t> items = {})
    {
        Object o;
        o.kind = kind;
        o.items = std::move(items);
        return make(std::move(o));
    }
    void addToList(std::size_t list, const std::vector<std::size_t> &items)
    {
        expect(list, Kind::List, "APPEND's target")
            .items.insert(object(list).items.end(), items.begin(), items.end());
    }
    void addToDict(std::size_t dict, const std::vector<std::size_t> &items)
    {
        if (items.size() % 2 != 0)
            fail("SETITEMS with an odd number of keys and values");
        Object &d = expect(dict, Kind::Dict, "SETITEM's target");
        d.items.insert(d.items.end(), items.begin(), items.end());
    }

    // GLOBAL module name: only what torch.save writes for a state dict.
    std::size_t global(const std::string &module, const std::string &name)
    {
        Object o;
        o.kind = Kind::Global;
        o.text = module + "." + name;
        if (module == "collections" && name == "OrderedDict")
            o.callable = Callable::OrderedDict;
        else if (module == "torch._utils" && name == "_rebuild_tensor_v2")
            o.callable = Callable::RebuildTensor;
        else if (module == "torch._utils" && name == "_rebuild_parameter")
            o.callable = Callable::RebuildParameter;
        else if (module == "torch" && storageClass(name)) {
            o.callable = Callable::Storage;
            o.storageType = name;
        } else
            fail("the pickle names the global '" + o.text +
                 "', which is not one a PyTorch state dict needs: Glosa reads only tensors "
                 "from pytorch_model.bin and runs none of its code");
        return make(std::move(o));
    }

    std::vector<std::int64_t> ints(std::size_t tuple, const char *what)
    {
        std::vector<std::int64_t> out;
        for (std::size_t item : expect(tuple, Kind::Tuple, what).items)
            out.push_back(expect(item, Kind::Int, what).integer);
        return out;
    }

    // REDUCE callable args: only the tensor rebuilds and OrderedDict().
    std::size_t reduce(std::size_t callable, std::size_t argsIndex)
    {
        const Object &f = m_objects[callable];
        if (f.kind != Kind::Global || f.callable == Callable::None ||
            f.callable == Callable::Storage)
            fail(std::string("REDUCE of ") +
                 (f.kind == Kind::Global ? "'" + f.text + "'" : std::string(kindName(f.kind))) +
                 " is not allowed: only tensor rebuilds and OrderedDict() are");
        const std::vector<std::size_t> args =
            expect(argsIndex, Kind::Tuple, "REDUCE's arguments").items;
        switch (f.callable) {
        case Callable::OrderedDict:
            if (!args.empty())
                fail("OrderedDict() with arguments");
            return makeContainer(Kind::Dict);
        case Callable::RebuildParameter:
            if (args.empty())
                fail("_rebuild_parameter without arguments");
            expect(args[0], Kind::Tensor, "_rebuild_parameter's data");
            return args[0];
        case Callable::RebuildTensor: {
            // (storage, storage_offset, size, stride, requires_grad, backward_hooks[, metadata])
            if (args.size() < 4 || args.size() > 7)
                fail("_rebuild_tensor_v2 with " + std::to_string(args.size()) + " arguments");
            const Object &storage = expect(args[0], Kind::Storage, "a tensor's storage");
            PickledTensor t;
            t.storage = storage.text;
            t.storageType = storage.storageType;
            t.storageElements = storage.integer;
            t.offset = expect(args[1], Kind::Int, "a tensor's storage offset").integer;
            t.shape = ints(args[2], "a tensor's size");
            t.stride = ints(args[3], "a tensor's stride");
            if (t.shape.size() != t.stride.size() ||
                t.shape.size() > static_cast<std::size_t>(limits::kMaxTensorRank))
                fail("a tensor of size " + shapeToString(t.shape) + " with " +
                     std::to_string(t.stride.size()) + " strides (rank limit " +
                     std::to_string(limits::kMaxTensorRank) + ")");
            Object o;
            o.kind = Kind::Tensor;
            o.tensor = m_tensors.size();
            m_tensors.push_back(std::move(t));
            return make(std::move(o));
        }
        default:
            break;
        }
        fail("REDUCE of an unknown callable");
    }

    // BINPERSID: ('storage', torch.<X>Storage, key, location, elements); the legacy format adds
    // a sixth field, the view a storage is of (None for every storage PyTorch 1.0 and later wrote).
    std::size_t persistent(std::size_t pid)
    {
        const std::vector<std::size_t> items = expect(pid, Kind::Tuple, "a persistent id").items;
        if (items.size() < 5 || items.size() > 6 || m_objects[items[0]].kind != Kind::String ||
            m_objects[items[0]].text != "storage")
            fail("a persistent id that is not ('storage', type, key, location, size)");
        if (items.size() == 6 && m_objects[items[5]].kind != Kind::None)
            fail("a storage that is a view of another (written by PyTorch before 1.0), which "
                 "Glosa does not read; save the state dict again with a newer PyTorch");
        const Object &type = expect(items[1], Kind::Global, "a storage type");
        if (type.callable != Callable::Storage)
            fail("a storage of type '" + type.text + "'");
        Object o;
        o.kind = Kind::Storage;
        o.storageType = type.storageType;
        o.text = expect(items[2], Kind::String, "a storage key").text;
        expect(items[3], Kind::String, "a storage location");
        o.integer = expect(items[4], Kind::Int, "a storage size").integer;
        if (o.integer < 0)
            fail("a storage of " + std::to_string(o.integer) + " elements");
        return make(std::move(o));
    }

    void memoPut(std::uint64_t key) { m_memo[key] = top(); }
    void memoGet(std::uint64_t key)
    {
        const auto it = m_memo.find(key);
        if (it == m_memo.end())
            fail("the pickle reads memo entry " + std::to_string(key) + " before writing it");
        push(it->second);
    }

    // The protocol, frame, mark, stack and memo opcodes. Returns false for another opcode.
    bool stackOp(unsigned char op)
    {
        switch (op) {
        case 0x80: { // PROTO
            const auto version = static_cast<unsigned char>(take(1)[0]);
            if (version < 2 || version > 5)
                fail("pickle protocol " + std::to_string(version) + " (expected 2 to 5)");
            return true;
        }
        case 0x95: // FRAME: a length hint
            take(8);
            return true;
        case '(':
            m_marks.push_back(m_stack.size());
            return true;
        case '0':
            pop();
            return true;
        case '1':
            popMark();
            return true;
        case '2':
            push(top());
            return true;
        case 'q':
            memoPut(littleEndian(1));
            return true;
        case 'r':
            memoPut(littleEndian(4));
            return true;
        case 0x94: // MEMOIZE
            memoPut(m_memo.size());
            return true;
        case 'h':
            memoGet(littleEndian(1));
            return true;
        case 'j':
            memoGet(littleEndian(4));
            return true;
        default:
            return false;
        }
    }

    // None, booleans, integers and floats (a float only as a placeholder: a state dict's
    // tensors never need one's value). Returns false for another opcode.
    bool scalarOp(unsigned char op)
    {
        switch (op) {
        case 'N':
            push(makeInt(0, Kind::None));
            return true;
        case 0x88:
            push(makeInt(1, Kind::Bool));
            return true;
        case 0x89:
            push(makeInt(0, Kind::Bool));
            return true;
        case 'J':
            push(makeInt(static_cast<std::int32_t>(littleEndian(4))));
            return true;
        case 'K':
            push(makeInt(static_cast<std::int64_t>(littleEndian(1))));
            return true;
        case 'M':
            push(makeInt(static_cast<std::int64_t>(littleEndian(2))));
            return true;
        case 0x8a: { // LONG1: n-byte two's complement
            const std::size_t n = littleEndian(1);
            if (n > 8)
                fail("an integer of " + std::to_string(n) + " bytes");
            std::uint64_t v = n ? littleEndian(n) : 0;
            if (n > 0 && n < 8 && (v >> (8 * n - 1)) & 1)
                v |= ~std::uint64_t(0) << (8 * n); // sign extension
            push(makeInt(static_cast<std::int64_t>(v)));
            return true;
        }
        case 'G': { // BINFLOAT: big-endian double; kept only as a placeholder value
            take(8);
            push(makeInt(0, Kind::Float));
            return true;
        }
        default:
            return false;
        }
    }

    // Strings and bytes, whatever their length prefix. Returns false for another opcode.
    bool stringOp(unsigned char op)
    {
        switch (op) {
        case 'X':
            push(makeString(take(littleEndian(4))));
            return true;
        case 0x8c:
            push(makeString(take(littleEndian(1))));
            return true;
        case 0x8d:
            push(makeString(take(littleEndian(8))));
            return true;
        case 'U':
            push(makeString(take(littleEndian(1))));
            return true;
        case 'T':
            push(makeString(take(littleEndian(4))));
            return true;
        case 'C':
            push(makeString(take(littleEndian(1))));
            return true;
        case 'B':
            push(makeString(take(littleEndian(4))));
            return true;
        default:
            return false;
        }
    }

    // Tuples, lists and dicts, and adding items to them. Returns false for another opcode.
    bool containerOp(unsigned char op)
    {
        switch (op) {
        case ')':
            push(makeContainer(Kind::Tuple));
            return true;
        case 't':
            push(makeContainer(Kind::Tuple, popMark()));
            return true;
        case 0x85:
        case 0x86:
        case 0x87: {
            std::vector<std::size_t> items(op - 0x84);
            for (std::size_t i = items.size(); i-- > 0;)
                items[i] = pop();
            push(makeContainer(Kind::Tuple, std::move(items)));
            return true;
        }
        case ']':
            push(makeContainer(Kind::List));
            return true;
        case 'l':
            push(makeContainer(Kind::List, popMark()));
            return true;
        case 'a': {
            const std::size_t item = pop();
            addToList(top(), {item});
            return true;
        }
        case 'e': {
            const std::vector<std::size_t> items = popMark();
            addToList(top(), items);
            return true;
        }
        case '}':
            push(makeContainer(Kind::Dict));
            return true;
        case 'd': {
            const std::vector<std::size_t> items = popMark();
            const std::size_t dict = makeContainer(Kind::Dict);
            addToDict(dict, items);
            push(dict);
            return true;
        }
        case 's': {
            const std::size_t value = pop();
            const std::size_t key = pop();
            addToDict(top(), {key, value});
            return true;
        }
        case 'u': {
            const std::vector<std::size_t> items = popMark();
            addToDict(top(), items);
            return true;
        }
        default:
            return false;
        }
    }

    // Globals (only the whitelisted ones), REDUCE, BUILD and persistent ids: how torch.save
    // names tensors and their storages; no object is ever constructed. Returns false for another
    // opcode.
    bool objectOp(unsigned char op)
    {
        switch (op) {
        case 'c': {
            const std::string module = line();
            const std::string name = line();
            push(global(module, name));
            return true;
        }
        case 0x93: { // STACK_GLOBAL
            const std::size_t name = pop();
            const std::size_t module = pop();
            push(global(expect(module, Kind::String, "STACK_GLOBAL's module").text,
                        expect(name, Kind::String, "STACK_GLOBAL's name").text));
            return true;
        }
        case 'R': {
            const std::size_t args = pop();
            const std::size_t callable = pop();
            push(reduce(callable, args));
            return true;
        }
        case 'b': { // BUILD: the state of an OrderedDict (_metadata) or a tensor is not needed
            pop();
            const Kind kind = m_objects[top()].kind;
            if (kind != Kind::Dict && kind != Kind::Tensor)
                fail(std::string("BUILD on ") + kindName(kind) + " is not allowed");
            return true;
        }
        case 'Q':
            push(persistent(pop()));
            return true;
        default:
            return false;
        }
    }

    void step(unsigned char op, std::size_t at)
    {
        if (stackOp(op) || scalarOp(op) || stringOp(op) || containerOp(op) || objectOp(op))
            return;
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", op);
        const bool printable = op >= 0x20 && op < 0x7f;
        fail("the pickle opcode " + std::string(hex) +
             (printable ? std::string(" ('") + char(op) + "')" : std::string()) + " at byte " +
             std::to_string(at) +
             " is not allowed: Glosa reads only the opcodes torch.save writes for a state dict "
             "(an object is never constructed, no code runs)");
    }

    std::map<std::string, PickledTensor> result()
    {
        const Object &root = m_objects[m_stack.back()];
        if (root.kind != Kind::Dict)
            fail(std::string("the checkpoint holds ") + kindName(root.kind) +
                 ", expected a state dict (name -> tensor)");
        std::map<std::string, PickledTensor> out;
        for (std::size_t i = 0; i + 1 < root.items.size(); i += 2) {
            const Object &key = expect(root.items[i], Kind::String, "a state dict key");
            const Object &value = m_objects[root.items[i + 1]];
            if (value.kind != Kind::Tensor)
                fail("the state dict entry \"" + key.text + "\" is " + kindName(value.kind) +
                     ", expected a tensor");
            if (!out.emplace(key.text, m_tensors[value.tensor]).second)
                fail("the state dict has the key \"" + key.text + "\" more than once");
        }
        return out;
    }

    std::string_view m_bytes;
    const std::string &m_path;
    std::size_t m_at = 0;
    std::vector<Object> m_objects;
    std::vector<std::size_t> m_stack;
    std::vector<std::size_t> m_marks; // stack sizes at each MARK
    std::unordered_map<std::uint64_t, std::size_t> m_memo;
    std::vector<PickledTensor> m_tensors;
};

// --- The zip directory -----------------------------------------------------------------------

struct ZipEntry
{
    std::uint64_t offset = 0; // of the data, in the file
    std::uint64_t size = 0;
};

std::uint64_t readLe(const char *p, int n)
{
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i)
        v |= std::uint64_t(static_cast<unsigned char>(p[i])) << (8 * i);
    return v;
}

// --- Reading the zip archive torch.save writes -------------------------------------------------

struct ZipDirectory
{
    std::uint64_t entries = 0;
    std::uint64_t offset = 0, size = 0;
};

// The central directory's place and entry count, from the end record (zip64's where needed).
ZipDirectory findZipDirectory(std::string_view file, const std::string &path)
{
    // End of central directory: the last 22 + comment bytes.
    std::size_t eocd = std::string_view::npos;
    const std::size_t earliest = file.size() >= 22 + 65535 ? file.size() - 22 - 65535 : 0;
    for (std::size_t at = file.size() - 22;; --at) {
        if (readLe(file.data() + at, 4) == 0x06054b50) {
            eocd = at;
            break;
        }
        if (at == earliest)
            break;
    }
    if (eocd == std::string_view::npos)
        throw PackageError(path, {},
                           "the zip archive has no end-of-directory record (a truncated file?)");
    const char *e = file.data() + eocd;
    std::uint64_t entries = readLe(e + 10, 2);
    std::uint64_t directorySize = readLe(e + 12, 4);
    std::uint64_t directoryOffset = readLe(e + 16, 4);
    if (entries == 0xffff || directorySize == 0xffffffff || directoryOffset == 0xffffffff) {
        // Zip64: the locator sits just before the end record.
        if (eocd < 20 || readLe(file.data() + eocd - 20, 4) != 0x07064b50)
            throw PackageError(path, {}, "the zip64 archive has no zip64 locator");
        const std::uint64_t record = readLe(file.data() + eocd - 20 + 8, 8);
        if (file.size() < 56 || record > file.size() - 56 ||
            readLe(file.data() + record, 4) != 0x06064b50)
            throw PackageError(path, {}, "the zip64 end-of-directory record is outside the file");
        entries = readLe(file.data() + record + 32, 8);
        directorySize = readLe(file.data() + record + 40, 8);
        directoryOffset = readLe(file.data() + record + 48, 8);
    }
    if (directoryOffset > file.size() || directorySize > file.size() - directoryOffset)
        throw PackageError(path, {}, "the zip directory lies outside the file (a truncated file?)");
    return {entries, directoryOffset, directorySize};
}

// The directory entry `i` at `at` (moved past it): its name, and where its data lies in the
// file, checked to lie inside it, stored (not compressed) and not encrypted.
std::pair<std::string, ZipEntry> readZipEntry(std::string_view file, std::uint64_t &at,
                                              std::uint64_t end, std::uint64_t i,
                                              const std::string &path)
{
    if (at + 46 > end || readLe(file.data() + at, 4) != 0x02014b50)
        throw PackageError(path, {}, "zip directory entry " + std::to_string(i) + " is damaged");
    const char *c = file.data() + at;
    const auto flags = readLe(c + 8, 2);
    const auto method = readLe(c + 10, 2);
    std::uint64_t compressed = readLe(c + 20, 4);
    std::uint64_t size = readLe(c + 24, 4);
    const auto nameLength = readLe(c + 28, 2);
    const auto extraLength = readLe(c + 30, 2);
    const auto commentLength = readLe(c + 32, 2);
    std::uint64_t local = readLe(c + 42, 4);
    if (at + 46 + nameLength + extraLength + commentLength > end)
        throw PackageError(path, {},
                           "zip directory entry " + std::to_string(i) + " runs past the directory");
    const std::string name(c + 46, nameLength);
    // Zip64 sizes and offset, in this order, for the fields that are 0xffffffff.
    for (std::uint64_t x = 0; x + 4 <= extraLength;) {
        const char *field = c + 46 + nameLength + x;
        const auto id = readLe(field, 2), length = readLe(field + 2, 2);
        if (x + 4 + length > extraLength)
            break;
        if (id == 0x0001) {
            std::uint64_t y = 4;
            for (std::uint64_t *v : {&size, &compressed, &local})
                if (*v == 0xffffffff && y + 8 <= 4 + length) {
                    *v = readLe(field + y, 8);
                    y += 8;
                }
        }
        x += 4 + length;
    }
    at += 46 + nameLength + extraLength + commentLength;
    if (file.size() < 30 || local > file.size() - 30 ||
        readLe(file.data() + local, 4) != 0x04034b50)
        throw PackageError(path, {}, "the zip entry \"" + name + "\" points outside the file");
    const std::uint64_t data =
        local + 30 + readLe(file.data() + local + 26, 2) + readLe(file.data() + local + 28, 2);
    if ((flags & 1) != 0)
        throw PackageError(path, {}, "the zip entry \"" + name + "\" is encrypted");
    if (method != 0 || compressed != size)
        throw PackageError(path, {},
                           "the zip entry \"" + name +
                               "\" is compressed; torch.save stores its entries uncompressed");
    if (data > file.size() || size > file.size() - data)
        throw PackageError(path, {},
                           "the zip entry \"" + name + "\" (" + std::to_string(size) +
                               " bytes) runs past the end of the file (a truncated file?)");
    return {name, ZipEntry{data, size}};
}

std::map<std::string, ZipEntry> readZipDirectory(std::string_view file, const std::string &path)
{
    const ZipDirectory directory = findZipDirectory(file, path);
    std::map<std::string, ZipEntry> zip;
    std::uint64_t at = directory.offset;
    const std::uint64_t end = directory.offset + directory.size;
    for (std::uint64_t i = 0; i < directory.entries; ++i) {
        auto [name, entry] = readZipEntry(file, at, end, i, path);
        zip[name] = entry;
    }
    return zip;
}

// The archive's folder name: the one holding data.pkl (and the tensors' data/<key>); its
// byteorder, where written, must be little.
std::string checkpointArchive(const std::map<std::string, ZipEntry> &zip, std::string_view file,
                              const std::string &path)
{
    // <archive>/data.pkl, <archive>/data/<key>, optionally <archive>/byteorder.
    std::string archive;
    for (const auto &[name, entry] : zip) {
        const std::size_t slash = name.find('/');
        if (slash != std::string::npos && name.substr(slash) == "/data.pkl") {
            if (!archive.empty())
                throw PackageError(path, {}, "the archive holds more than one data.pkl");
            archive = name.substr(0, slash);
        }
    }
    if (archive.empty())
        throw PackageError(path, {},
                           "the zip archive has no <name>/data.pkl: not a PyTorch checkpoint");
    const auto byteorder = zip.find(archive + "/byteorder");
    if (byteorder != zip.end() &&
        file.substr(byteorder->second.offset, byteorder->second.size) != "little")
        throw PackageError(path, {}, "the checkpoint was written on a big-endian machine");
    return archive;
}

// The legacy format's first pickle: PROTO, optionally FRAME, LONG1 of torch.serialization's
// MAGIC_NUMBER 0x1950a86a20f9469cfc6c (10 bytes, little-endian), STOP. Where the next pickle
// starts; 0 when `file` does not start so.
std::size_t legacyMagicEnd(std::string_view file)
{
    static constexpr std::string_view kMagic = "\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19.";
    std::size_t at = 2; // PROTO n
    if (file.size() > at && static_cast<unsigned char>(file[at]) == 0x95)
        at += 9; // FRAME and its 8-byte length
    return file.size() >= at + kMagic.size() && file.substr(at, kMagic.size()) == kMagic
               ? at + kMagic.size()
               : 0;
}

// A view that is not contiguous must still be one a tensor can have: no two elements on one
// storage element. A stride of 0 (or strides that overlap) makes an element count that the file
// does not hold (a one-element storage materialised as a 512 x 512 matrix, layer after layer);
// torch.save writes such strides only for expanded tensors, never for a model's weights. Sorted
// by stride, each dimension must step past everything the smaller ones reach.
std::string overlappingView(const PickledTensor &t)
{
    std::vector<std::size_t> order;
    for (std::size_t d = 0; d < t.shape.size(); ++d)
        if (t.shape[d] > 1)
            order.push_back(d);
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return t.stride[a] < t.stride[b]; });
    std::int64_t reach = 0; // the furthest offset the dimensions so far reach
    for (const std::size_t d : order) {
        if (t.stride[d] <= reach)
            return "its stride " + std::to_string(t.stride[d]) + " in dimension " +
                   std::to_string(d) + " (size " + shapeToString(t.shape) +
                   ") repeats storage elements: a weight is never such a view";
        reach += (t.shape[d] - 1) * t.stride[d]; // within the storage: checked before
    }
    return {};
}

} // namespace

std::map<std::string, PickledTensor> readStateDictPickle(std::string_view pickle,
                                                         const std::string &path)
{
    return Machine(pickle, path).run();
}

struct TorchCheckpoint::Mapping
{
    void *address = MAP_FAILED;
    std::size_t size = 0;
    ~Mapping()
    {
        if (address != MAP_FAILED)
            ::munmap(address, size);
    }
    std::string_view bytes() const { return {static_cast<const char *>(address), size}; }
};

void TorchCheckpoint::fail(const std::string &tensor, const std::string &message) const
{
    throw PackageError(m_path, tensor, message);
}

TorchCheckpoint::TorchCheckpoint(const std::string &path) : m_path(path)
{
    RegularFile opened(path);
    if (!opened.ok())
        fail({}, opened.openFailed() ? "cannot open: " + opened.error() : opened.error());
    m_mapping = std::make_shared<Mapping>();
    if (opened.size() > 0) {
        m_mapping->size = static_cast<std::size_t>(opened.size());
        m_mapping->address =
            ::mmap(nullptr, m_mapping->size, PROT_READ, MAP_PRIVATE, opened.fd(), 0);
    }
    const int mapError = errno;
    if (opened.size() == 0)
        fail({}, "the file is empty");
    if (m_mapping->address == MAP_FAILED)
        fail({}, std::string("cannot memory-map it: ") + std::strerror(mapError));
    const std::string_view file = m_mapping->bytes();

    // PyTorch before 1.6 wrote a bare pickle stream starting with PROTO and a magic number.
    if (file.size() >= 2 && static_cast<unsigned char>(file[0]) == 0x80 &&
        file.substr(0, 2) != "PK") {
        readLegacy(file);
        return;
    }
    if (file.size() < 22 || file.substr(0, 2) != "PK")
        fail({}, "not a PyTorch checkpoint (neither a zip archive nor a pickle)");

    const std::map<std::string, ZipEntry> zip = readZipDirectory(file, path);
    const std::string archive = checkpointArchive(zip, file, path);
    const ZipEntry pickle = zip.at(archive + "/data.pkl");
    m_tensors = readStateDictPickle(file.substr(pickle.offset, pickle.size), path);
    std::map<std::string, std::string_view> storages;
    for (const auto &[name, tensor] : m_tensors)
        if (const auto entry = zip.find(archive + "/data/" + tensor.storage); entry != zip.end())
            storages[tensor.storage] = file.substr(entry->second.offset, entry->second.size);
    attachStorages(storages);
}

void TorchCheckpoint::attachStorages(const std::map<std::string, std::string_view> &storages)
{
    for (const auto &[name, tensor] : m_tensors) {
        const auto entry = storages.find(tensor.storage);
        if (entry == storages.end())
            fail(name, "its storage \"" + tensor.storage + "\" is missing from the checkpoint");
        const StorageClass *type = storageClass(tensor.storageType);
        if (entry->second.size() / type->elementSize <
            static_cast<std::uint64_t>(tensor.storageElements))
            fail(name, "its storage \"" + tensor.storage + "\" holds " +
                           std::to_string(entry->second.size()) + " bytes, fewer than " +
                           std::to_string(tensor.storageElements) + " " + tensor.storageType +
                           " elements (a truncated file?)");
        m_storages[tensor.storage] = entry->second;
    }
}

// torch.serialization's _legacy_save: the magic number, the protocol version (1001) and the
// sys-info dict, each a pickle; then the state dict's pickle, whose tensors name their storages
// by persistent id; then the sorted list of storage keys, a pickle too; then each storage in
// that order, its element count (8 bytes, little-endian) followed by its raw bytes. The pickles
// go through the same whitelisted machine as the zip format's data.pkl.
void TorchCheckpoint::readLegacy(std::string_view file)
{
    std::size_t at = legacyMagicEnd(file);
    if (at == 0)
        fail({}, "starts as a pickle but not with PyTorch's magic number: not a PyTorch "
                 "checkpoint");
    // The next pickle of the stream, read from at most kMaxPickleBytes.
    const auto next = [&](const auto &read) {
        Machine machine(file.substr(at, std::min(file.size() - at, kMaxPickleBytes)), m_path);
        read(machine);
        at += machine.consumed();
    };
    next([&](Machine &m) {
        const Object &version = m.runToStop();
        if (version.kind != Kind::Int || version.integer != 1001)
            fail({}, "legacy checkpoint protocol version " +
                         (version.kind == Kind::Int ? std::to_string(version.integer)
                                                    : std::string(kindName(version.kind))) +
                         ", expected 1001");
    });
    next([&](Machine &m) {
        const Object &info = m.runToStop();
        if (info.kind != Kind::Dict)
            fail({}, std::string("the legacy checkpoint's sys info is ") + kindName(info.kind) +
                         ", expected a dict");
        for (std::size_t i = 0; i + 1 < info.items.size(); i += 2)
            if (m.objectAt(info.items[i]).text == "little_endian" &&
                m.objectAt(info.items[i + 1]).integer != 1)
                fail({}, "the checkpoint was written on a big-endian machine");
    });
    next([&](Machine &m) { m_tensors = m.run(); });
    std::vector<std::string> keys;
    next([&](Machine &m) {
        const Object &list = m.runToStop();
        if (list.kind != Kind::List)
            fail({}, std::string("the legacy checkpoint's storage keys are ") +
                         kindName(list.kind) + ", expected a list");
        for (std::size_t item : list.items) {
            if (m.objectAt(item).kind != Kind::String)
                fail({}, "a storage key that is not a string");
            keys.push_back(m.objectAt(item).text);
        }
    });
    std::map<std::string, std::size_t> elementSizes;
    for (const auto &[name, tensor] : m_tensors)
        elementSizes[tensor.storage] = storageClass(tensor.storageType)->elementSize;
    std::map<std::string, std::string_view> storages;
    for (const std::string &key : keys) {
        const auto size = elementSizes.find(key);
        if (size == elementSizes.end())
            fail({}, "the storage \"" + key + "\" belongs to no tensor of the state dict");
        if (file.size() - at < 8)
            fail({}, "the storage \"" + key + "\" is cut short (a truncated file?)");
        const std::uint64_t count = readLe(file.data() + at, 8);
        at += 8;
        if (count > (file.size() - at) / size->second)
            fail({}, "the storage \"" + key + "\" claims " + std::to_string(count) +
                         " elements, more than the " + std::to_string(file.size() - at) +
                         " bytes left in the file (a truncated file?)");
        storages[key] = file.substr(at, count * size->second);
        at += count * size->second;
    }
    attachStorages(storages);
}

TorchCheckpoint::~TorchCheckpoint() = default;

std::vector<std::string> TorchCheckpoint::names() const
{
    std::vector<std::string> out;
    for (const auto &entry : m_tensors)
        out.push_back(entry.first);
    return out;
}

bool TorchCheckpoint::contains(const std::string &name) const
{
    return m_tensors.count(name) != 0;
}

Shape TorchCheckpoint::shape(const std::string &name) const
{
    const auto it = m_tensors.find(name);
    if (it == m_tensors.end())
        fail(name, "tensor not found");
    return it->second.shape;
}

Tensor TorchCheckpoint::loadFloat(const std::string &name) const
{
    const auto it = m_tensors.find(name);
    if (it == m_tensors.end())
        fail(name, "tensor not found");
    const PickledTensor &t = it->second;
    DType dtype;
    if (t.storageType == "FloatStorage")
        dtype = DType::F32;
    else if (t.storageType == "HalfStorage")
        dtype = DType::F16;
    else if (t.storageType == "BFloat16Storage")
        dtype = DType::BF16;
    else
        fail(name, "its elements are " + t.storageType +
                       "; weights must be float32, float16 or "
                       "bfloat16");
    std::int64_t numel = 0;
    try {
        numel = shapeNumel(t.shape);
    } catch (const std::overflow_error &) {
        fail(name, "its size " + shapeToString(t.shape) + " overflows");
    }
    if (numel > limits::kMaxTensorElements)
        fail(name, "its " + std::to_string(numel) + " elements exceed the limit of " +
                       std::to_string(limits::kMaxTensorElements));
    // The furthest element the view reaches must lie inside the storage (checked as it is
    // summed: each term is below 2^62 and the sum stays below the storage size, so nothing
    // overflows). storageElements was checked against the entry's bytes at load.
    bool contiguous = true;
    std::int64_t last = t.offset, expectedStride = 1;
    if (t.offset < 0 || (numel > 0 && t.offset >= t.storageElements))
        fail(name, "its storage offset " + std::to_string(t.offset) +
                       " lies outside its storage of " + std::to_string(t.storageElements) +
                       " elements");
    for (std::size_t d = t.shape.size(); d-- > 0;) {
        if (t.shape[d] < 0 || t.stride[d] < 0 || t.stride[d] > limits::kMaxTensorElements)
            fail(name, "a negative size or a stride out of range");
        if (numel == 0)
            continue; // nothing is read (and the sizes' partial products may not fit 64 bits)
        if (t.shape[d] != 1 && t.stride[d] != expectedStride)
            contiguous = false;
        expectedStride *= t.shape[d];
        last += (t.shape[d] - 1) * t.stride[d];
        if (last >= t.storageElements)
            fail(name, "its view (offset " + std::to_string(t.offset) + ", size " +
                           shapeToString(t.shape) + ") reaches past its storage of " +
                           std::to_string(t.storageElements) + " elements");
    }
    if (!contiguous && numel > 0)
        if (const std::string overlap = overlappingView(t); !overlap.empty())
            fail(name, overlap);
    const std::string_view bytes = m_storages.at(t.storage);
    const std::size_t element = dtypeSize(dtype);
    Tensor gathered(t.shape, dtype);
    char *out = static_cast<char *>(gathered.raw());
    if (contiguous) {
        if (numel > 0)
            std::memcpy(out, bytes.data() + t.offset * element, numel * element);
    } else {
        std::vector<std::int64_t> index(t.shape.size(), 0);
        for (std::int64_t i = 0; i < numel; ++i) {
            std::int64_t source = t.offset;
            for (std::size_t d = 0; d < index.size(); ++d)
                source += index[d] * t.stride[d];
            std::memcpy(out + i * element, bytes.data() + source * element, element);
            for (std::size_t d = index.size(); d-- > 0;) {
                if (++index[d] < t.shape[d])
                    break;
                index[d] = 0;
            }
        }
    }
    Tensor result = dtype == DType::F32 ? std::move(gathered) : gathered.toFloat32();
    if (!result.allFinite())
        fail(name, "holds values that are not finite (NaN or infinity)");
    return result;
}

} // namespace glosa::engine
