// The Hugging Face hub's JSON answers as the hub client reads them (app/core/hub/hubapi.h): a
// repository's files (GET /api/models/{repo}/revision/{rev}?blobs=true) and search results
// (GET /api/models). Each input is read both ways; whatever is accepted must be within the
// bounds the client relies on: ids and paths that stay inside the folder files are written to,
// counts within hublimits. Seeds: corpus/fuzz_hub_json (the loopback hub's answers for the
// fixture, and the hub's own shapes).
#include "app/core/hub/hubapi.h"
#include "tests/fuzz/fuzzutil.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray json = QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    const glosa::HubResult<glosa::HubRepoInfo> info = glosa::parseRepoInfo(json);
    if (info.ok()) {
        if (info.value.commit.size() != 40 || info.value.files.size() > glosa::hublimits::kMaxFiles)
            std::abort();
        const auto files = glosa::marianFiles(info.value);
        if (files.ok())
            for (const glosa::HubFile &file : files.value)
                if (!glosa::isSafeRepoPath(file.path))
                    std::abort();
    }
    const auto hits = glosa::parseSearchResults(json);
    if (hits.ok()) {
        if (hits.value.size() > glosa::hublimits::kMaxSearchResults)
            std::abort();
        for (const glosa::HubModelSummary &hit : hits.value)
            if (!glosa::isValidRepoId(hit.id))
                std::abort();
    }
    return 0;
}
