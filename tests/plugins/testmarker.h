// Marker files that let the registry tests see which test-plugin code ran: when
// $GLOSA_TEST_PLUGIN_MARKERS names a folder, touchMarker("x") creates <folder>/x. Plain C++ so it
// can run from a static initializer, before Qt knows about the library.
#pragma once

#include <cstdlib>
#include <fstream>
#include <string>

namespace glosa::test {

inline void touchMarker(const char *name)
{
    const char *dir = std::getenv("GLOSA_TEST_PLUGIN_MARKERS");
    if (!dir || !*dir)
        return;
    std::ofstream(std::string(dir) + "/" + name) << name << "\n";
}

// Touches a marker when the library is mapped (dlopen runs static initializers).
struct LibraryLoadMarker
{
    explicit LibraryLoadMarker(const char *name) { touchMarker(name); }
};

} // namespace glosa::test
