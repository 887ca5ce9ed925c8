// Test plugin: claims the model-plugin IID in its metadata but its class is a bare QObject.
#include "plugins/modelplugin.h"

#include <QObject>

class NotInterfacePlugin : public QObject
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID GlosaModelPluginInterface_iid FILE "notinterface.json")
};

#include "notinterfaceplugin.moc"
