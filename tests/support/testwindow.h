// The main window as main.cpp builds it, for the GUI tests: over an application context of its
// own (default plugin and model folders), built before the window and destroyed after it.
#pragma once

#include "app/core/appcontext.h"
#include "app/gui/mainwindow.h"

namespace glosa::test {

namespace detail {
struct ContextOwner
{
    AppContext ownContext;
};
} // namespace detail

// A base before MainWindow, so constructed before it and destroyed after it.
class Window : private detail::ContextOwner, public MainWindow
{
public:
    Window() : MainWindow(ownContext) {}
};

} // namespace glosa::test
