// Model: the base of every loaded model, whatever its family. Plugins create models from a
// validated ModelPackage (engine/package.h); the app only sees these interfaces.
// Translation and captioning models derive from it and add the step-decoder contract
// (engine/layers/stepdecoder.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace glosa::engine {

enum class Task { Translation, Captioning };

// The one spelling of each task: model.json's "task", a plugin's metadata "tasks", the keys of
// the user's per-direction defaults and of the app's model choices.
constexpr const char *taskName(Task task)
{
    return task == Task::Translation ? "translation" : "captioning";
}
inline std::optional<Task> taskFromName(std::string_view name)
{
    for (Task task : {Task::Translation, Task::Captioning})
        if (name == taskName(task))
            return task;
    return std::nullopt;
}

class Model
{
public:
    virtual ~Model() = default;
    virtual Task task() const = 0;
    // The package id (model.json "id").
    virtual std::string id() const = 0;
};

} // namespace glosa::engine
