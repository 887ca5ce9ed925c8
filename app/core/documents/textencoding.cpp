#include "app/core/documents/textencoding.h"

#include "app/core/documents/document.h"
#include "engine/text/unicode.h"

#include <QFile>
#include <QStringDecoder>

#include <unicode/ucnv.h>
#include <unicode/ucsdet.h>

#include <QStringList>

#include <algorithm>
#include <memory>
#include <vector>

namespace glosa::documents {

namespace {

const QString kUtf8 = QStringLiteral("UTF-8");

struct ConverterCloser
{
    void operator()(UConverter *c) const { ucnv_close(c); }
};
using Converter = std::unique_ptr<UConverter, ConverterCloser>;

// A converter that stops at the first byte or character it cannot map instead of substituting.
Converter strictConverter(const QString &encoding)
{
    UErrorCode status = U_ZERO_ERROR;
    Converter converter(ucnv_open(encoding.toLatin1().constData(), &status));
    if (U_FAILURE(status))
        return nullptr;
    ucnv_setToUCallBack(converter.get(), UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr,
                        &status);
    ucnv_setFromUCallBack(converter.get(), UCNV_FROM_U_CALLBACK_STOP, nullptr, nullptr, nullptr,
                          &status);
    return U_SUCCESS(status) ? std::move(converter) : nullptr;
}

bool isControl(char16_t c)
{
    return (c < 0x20 && c != u'\t' && c != u'\n' && c != u'\r' && c != u'\f') ||
           (c >= 0x7F && c <= 0x9F);
}

// `bytes` in `encoding` as UTF-16; nullopt when a byte does not map or a control character
// (other than tab, line and page breaks) comes out: then it is not text in that encoding.
std::optional<std::u16string> toUtf16(const QByteArray &bytes, const QString &encoding)
{
    const Converter converter = strictConverter(encoding);
    if (!converter)
        return std::nullopt;
    std::u16string out(std::size_t(bytes.size()) * 2 + 2, u'\0');
    UErrorCode status = U_ZERO_ERROR;
    const int32_t length = ucnv_toUChars(converter.get(), out.data(), int32_t(out.size()),
                                         bytes.constData(), int32_t(bytes.size()), &status);
    if (U_FAILURE(status))
        return std::nullopt;
    out.resize(std::size_t(length));
    for (char16_t c : out)
        if (isControl(c))
            return std::nullopt;
    return out;
}

// The length of the well-formed UTF-8 character at bytes[i] (Unicode table 3-7), 0 when the
// byte does not start one.
int utf8Length(const QByteArray &bytes, qsizetype i)
{
    const auto at = [&](qsizetype k) { return k < bytes.size() ? uchar(bytes[k]) : 0; };
    const uchar b = at(i);
    auto continuation = [&](qsizetype k, uchar low = 0x80, uchar high = 0xBF) {
        return at(k) >= low && at(k) <= high;
    };
    if (b < 0x80)
        return 1;
    if (b >= 0xC2 && b <= 0xDF)
        return continuation(i + 1) ? 2 : 0;
    if (b >= 0xE0 && b <= 0xEF) {
        const uchar low = b == 0xE0 ? 0xA0 : 0x80, high = b == 0xED ? 0x9F : 0xBF;
        return continuation(i + 1, low, high) && continuation(i + 2) ? 3 : 0;
    }
    if (b >= 0xF0 && b <= 0xF4) {
        const uchar low = b == 0xF0 ? 0x90 : 0x80, high = b == 0xF4 ? 0x8F : 0xBF;
        return continuation(i + 1, low, high) && continuation(i + 2) && continuation(i + 3) ? 4 : 0;
    }
    return 0;
}

struct Utf8Census
{
    qsizetype multiByte = 0;        // well-formed characters of 2-4 bytes
    std::vector<qsizetype> invalid; // offsets of the bytes that start none
};

Utf8Census utf8Census(const QByteArray &bytes)
{
    Utf8Census census;
    for (qsizetype i = 0; i < bytes.size();) {
        const int length = utf8Length(bytes, i);
        if (length == 0) {
            census.invalid.push_back(i++);
            continue;
        }
        census.multiByte += length > 1;
        i += length;
    }
    return census;
}

// UTF-8 text with a few stray bytes (a file cut and pasted together, one Latin-1 character in a
// UTF-8 file): at least one well-formed multi-byte character, and at most one bad byte in ten of
// them (4 at least). Read as Latin-1, its "café" became "cafÃ©" and the whole file was written
// back in Latin-1.
bool isMostlyUtf8(const Utf8Census &census)
{
    return census.multiByte > 0 &&
           qsizetype(census.invalid.size()) <= std::max<qsizetype>(4, census.multiByte / 10);
}

} // namespace

const QString kRepairedUtf8 = QStringLiteral("UTF-8, repaired");
const int kMinMultiByteConfidence = 50;

QString detectEncoding(const QByteArray &bytes, bool truncated, int *confidence)
{
    if (confidence)
        *confidence = 100; // a byte-order mark, UTF-8, UTF-16 by its NULs

    if (bytes.startsWith("\xFF\xFE"))
        return QStringLiteral("UTF-16LE");
    if (bytes.startsWith("\xFE\xFF"))
        return QStringLiteral("UTF-16BE");
    const std::size_t bad = engine::findInvalidUtf8({bytes.constData(), std::size_t(bytes.size())});
    if (bad == std::string_view::npos || (truncated && bad + 4 > std::size_t(bytes.size())))
        return kUtf8;
    if (bytes.contains('\0')) {
        // UTF-16 without a byte-order mark: every NUL on one side of its 16-bit units (the high
        // byte of ASCII and Latin characters, so in a quarter of them at least) and the whole
        // converting to text. Anything else with a NUL (one stray NUL in ASCII) is binary.
        qsizetype zeros[2] = {0, 0};
        for (qsizetype i = 0; i < bytes.size(); ++i)
            zeros[i % 2] += bytes[i] == '\0';
        const qsizetype quarter = bytes.size() / 8;
        const QString utf16 = zeros[0] == 0 && zeros[1] >= quarter   ? QStringLiteral("UTF-16LE")
                              : zeros[1] == 0 && zeros[0] >= quarter ? QStringLiteral("UTF-16BE")
                                                                     : QString();
        if (!utf16.isEmpty() && bytes.size() % 2 == 0 && toUtf16(bytes, utf16))
            return utf16;
        return QString();
    }
    Utf8Census census = utf8Census(bytes);
    if (truncated) // the last character may be cut where the head of the file ends
        std::erase_if(census.invalid, [&](qsizetype at) { return at + 4 > bytes.size(); });
    if (isMostlyUtf8(census))
        return kRepairedUtf8;
    UErrorCode status = U_ZERO_ERROR;
    UCharsetDetector *detector = ucsdet_open(&status);
    if (U_FAILURE(status))
        return QString();
    ucsdet_setText(detector, bytes.constData(), int32_t(bytes.size()), &status);
    int32_t count = 0;
    const UCharsetMatch **matches = ucsdet_detectAll(detector, &count, &status);
    QString found;
    // The detector's matches, most confident first; the first that converts is taken.
    for (int32_t i = 0; U_SUCCESS(status) && i < count && found.isEmpty(); ++i) {
        const QString name = QString::fromLatin1(ucsdet_getName(matches[i], &status));
        const int32_t sure = ucsdet_getConfidence(matches[i], &status);
        // UTF-8 and UTF-16 were decided above; the detector's UTF-16/32 guesses for bytes
        // without NULs are its weakest.
        if (U_FAILURE(status) || name.startsWith(QLatin1String("UTF-")))
            continue;
        // The detector names some encodings that no converter opens ("IBM420_ltr",
        // "IBM424_rtl": the direction is the detector's own): those are not taken.
        const Converter converter = strictConverter(name);
        if (!converter)
            continue;
        // Multi-byte encodings (GB18030, Big5, Shift_JIS, EUC-JP, EUC-KR) only when the
        // detector is sure enough: Latin-1 letters pair up into valid GB18030 or Big5
        // characters ("ño" is one), and text in those encodings converts whatever it is. ICU
        // scores a multi-byte match 10 when it saw too few characters to tell and otherwise by
        // how many of them are among the language's most frequent ones (a log scale): Chinese,
        // Japanese and Korean prose scores 100, Spanish in Latin-1 read as GB18030 10.
        if (ucnv_getMaxCharSize(converter.get()) > 1 && sure < kMinMultiByteConfidence)
            continue;
        // The first 64 KiB of a file (`truncated`) may end inside a multi-byte character.
        for (int cut = 0; cut <= (truncated ? 3 : 0) && found.isEmpty(); ++cut)
            if (toUtf16(bytes.chopped(std::min<qsizetype>(cut, bytes.size())), name)) {
                found = name;
                if (confidence)
                    *confidence = sure;
            }
    }
    ucsdet_close(detector);
    return found;
}

QByteArray decodeText(const QByteArray &bytes, const QString &encoding, const QString &name,
                      QString *notice)
{
    if (encoding == kRepairedUtf8) {
        const Utf8Census census = utf8Census(bytes);
        QByteArray utf8;
        utf8.reserve(bytes.size() + 2 * qsizetype(census.invalid.size()));
        std::vector<qsizetype> lines;
        qsizetype from = 0, line = 1, counted = 0;
        for (const qsizetype at : census.invalid) {
            utf8 += bytes.mid(from, at - from);
            utf8 += "\xEF\xBF\xBD"; // U+FFFD REPLACEMENT CHARACTER
            from = at + 1;
            line += bytes.mid(counted, at - counted).count('\n');
            counted = at;
            if (lines.empty() || lines.back() != line)
                lines.push_back(line);
        }
        utf8 += bytes.mid(from);
        if (notice) {
            QStringList shown;
            for (std::size_t k = 0; k < lines.size() && k < 10; ++k)
                shown << QString::number(lines[k]);
            if (lines.size() > 10)
                shown << QStringLiteral("…");
            const qsizetype count = qsizetype(census.invalid.size());
            *notice = QStringLiteral("%1: %2 not UTF-8 (line%3 %4) read as U+FFFD (\uFFFD); the "
                                     "rest is UTF-8")
                          .arg(name,
                               count == 1 ? QStringLiteral("1 byte")
                                          : QStringLiteral("%1 bytes").arg(count),
                               lines.size() == 1 ? QString() : QStringLiteral("s"),
                               shown.join(QStringLiteral(", ")));
        }
        return utf8;
    }
    if (encoding == kUtf8 || encoding.isEmpty())
        return bytes;
    const std::optional<std::u16string> text = toUtf16(bytes, encoding);
    if (!text)
        throw DocumentError(QStringLiteral("%1 is not %2 text: it holds bytes or control "
                                           "characters that text in %2 does not have")
                                .arg(name, encodingDisplayName(encoding)));
    // A plain copy: QString::fromUtf16 would take a U+FEFF at the start for a byte-order mark
    // and drop it, and the text after a UTF-16 mark may start with one of its own.
    QByteArray utf8 =
        QString(reinterpret_cast<const QChar *>(text->data()), qsizetype(text->size())).toUtf8();
    // The readers keep a byte-order mark (UTF-8's) in the skeleton, so that it is written back.
    if ((bytes.startsWith("\xFF\xFE") || bytes.startsWith("\xFE\xFF")) &&
        !utf8.startsWith("\xEF\xBB\xBF"))
        utf8.prepend("\xEF\xBB\xBF");
    return utf8;
}

std::optional<QByteArray> encodeText(const QByteArray &utf8, const QString &encoding)
{
    if (encoding == kUtf8 || encoding.isEmpty())
        return utf8;
    const Converter converter = strictConverter(encoding);
    if (!converter)
        return std::nullopt;
    // A byte-order mark goes out as the encoding's own (neither Qt nor ICU keeps it on the way).
    const bool bom = utf8.startsWith("\xEF\xBB\xBF");
    // Not QString::fromUtf8, which would drop a second U+FEFF as a mark of its own.
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::ConvertInitialBom);
    const QString text = decoder.decode(utf8.mid(bom ? 3 : 0));
    QByteArray out(text.size() * ucnv_getMaxCharSize(converter.get()) + 4, '\0');
    UErrorCode status = U_ZERO_ERROR;
    const int32_t length = ucnv_fromUChars(converter.get(), out.data(), int32_t(out.size()),
                                           reinterpret_cast<const UChar *>(text.utf16()),
                                           int32_t(text.size()), &status);
    if (U_FAILURE(status))
        return std::nullopt;
    out.truncate(length);
    if (bom && encoding == QLatin1String("UTF-16LE"))
        out.prepend("\xFF\xFE");
    else if (bom && encoding == QLatin1String("UTF-16BE"))
        out.prepend("\xFE\xFF");
    else if (bom)
        return std::nullopt; // a single-byte encoding has no byte-order mark: write UTF-8
    return out;
}

QString detectFileEncoding(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QString();
    const QByteArray head = file.read(64 * 1024);
    return detectEncoding(head, !file.atEnd());
}

QString encodingDisplayName(const QString &encoding)
{
    if (encoding.startsWith(QLatin1String("windows-")))
        return QStringLiteral("Windows-") + encoding.mid(8);
    return encoding;
}

} // namespace glosa::documents
