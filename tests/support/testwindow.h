// The main window as main.cpp builds it, for the GUI tests: over an application context of its
// own (default plugin and model folders), built before the window and destroyed after it.
#pragma once

#include "app/core/appcontext.h"
#include "app/gui/mainwindow.h"
#include "app/gui/views/translateview.h"

#include <QSignalSpy>
#include <QTabWidget>

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

// Translates `text` in `window`'s Translate view, as Translate does, and waits until the view
// shows the result; an empty result after `timeoutMs`.
inline TranslationResult translateIn(MainWindow &window, const QString &text, int timeoutMs)
{
    window.tabs()->setCurrentIndex(MainWindow::TranslateTab);
    TranslateView *view = window.translateView();
    QSignalSpy shown(view, &TranslateView::translationShown);
    view->setSourceText(text);
    view->translateNow();
    if (!shown.wait(timeoutMs))
        return {};
    return view->result();
}

} // namespace glosa::test
