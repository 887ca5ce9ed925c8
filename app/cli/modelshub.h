// `glosa-cli models search` and `models get` (modelshubcommand.cpp), dispatched by
// modelscommand.cpp, and the exit code each kind of hub failure ends the process with.
#pragma once

#include "app/core/hub/hubapi.h"

#include <QStringList>

class QTextStream;

namespace glosa::cli {

// 0 success, 1 a file the importer refused or could not write, 4 not found, 5 network,
// 6 checksum mismatch, 7 disk full, 8 offline (HF_HUB_OFFLINE), 9 access refused,
// 130 cancelled (Ctrl+C).
int hubExitCode(HubErrorKind kind);

// Rows as columns two spaces apart, the last column unpadded (the first row is the header).
void printAlignedTable(const QList<QStringList> &table, QTextStream &out);

int runModelsSearchCommand(const QStringList &args, QTextStream &out, QTextStream &err);
int runModelsGetCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace glosa::cli
