// Test plugin: valid Glosa-looking metadata under a foreign IID. The IID is checked first, so the
// apiVersion in its JSON must not matter.
#include "tests/plugins/testmarker.h"

#include <QObject>
#include <QtPlugin>

namespace {
const glosa::test::LibraryLoadMarker loadMarker("wrongiid.loaded");
}

class WrongIidPlugin : public QObject
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID "org.example.SomeOtherInterface/1.0" FILE "wrongiid.json")
};

#include "wrongiidplugin.moc"
