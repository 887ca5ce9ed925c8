// PackageError: everything that is wrong with a model package on disk (model.json, weights,
// tokenizer files). The message is complete and meant for the user ("model.safetensors: tensor
// "decoder.out.weight": ..."); file() and tensor() let callers point at the culprit without
// parsing it.
#pragma once

#include <stdexcept>
#include <string>

namespace glosa::engine {

class PackageError : public std::runtime_error
{
public:
    // what() is "<file>: tensor "<tensor>": <message>", or "<file>: <message>" without a
    // tensor, or just <message> without a file.
    PackageError(std::string file, std::string tensor, const std::string &message)
        : std::runtime_error(format(file, tensor, message)), m_file(std::move(file)),
          m_tensor(std::move(tensor))
    {
    }

    // The offending file as given to the loader (may be empty).
    const std::string &file() const { return m_file; }
    // The offending tensor (may be empty).
    const std::string &tensor() const { return m_tensor; }

private:
    static std::string format(const std::string &file, const std::string &tensor,
                              const std::string &message)
    {
        std::string s;
        if (!file.empty())
            s += file + ": ";
        if (!tensor.empty())
            s += "tensor \"" + tensor + "\": ";
        return s + message;
    }

    std::string m_file;
    std::string m_tensor;
};

} // namespace glosa::engine
