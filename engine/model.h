// Model: the base of every loaded model, whatever its family. Plugins create models from a
// validated ModelPackage (engine/package.h); the app only sees these interfaces.
// Translation and captioning models derive from it and add the step-decoder contract
// (engine/layers/stepdecoder.h).
#pragma once

#include <string>

namespace glosa::engine {

enum class Task { Translation, Captioning };

class Model
{
public:
    virtual ~Model() = default;
    virtual Task task() const = 0;
    // The package id (model.json "id").
    virtual std::string id() const = 0;
};

} // namespace glosa::engine
