#include "app/core/documents/textencoding.h"

#include "app/core/documents/document.h"
#include "engine/text/unicode.h"

#include <QFile>
#include <QStringDecoder>

#include <unicode/ucnv.h>
#include <unicode/ucsdet.h>

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

} // namespace

QString detectEncoding(const QByteArray &bytes, bool truncated)
{
    if (bytes.startsWith("\xFF\xFE"))
        return QStringLiteral("UTF-16LE");
    if (bytes.startsWith("\xFE\xFF"))
        return QStringLiteral("UTF-16BE");
    const std::size_t bad = engine::findInvalidUtf8({bytes.constData(), std::size_t(bytes.size())});
    if (bad == std::string_view::npos || (truncated && bad + 4 > std::size_t(bytes.size())))
        return kUtf8;
    if (bytes.contains('\0'))
        return QString(); // binary, or UTF-16 without a byte-order mark: not guessed
    UErrorCode status = U_ZERO_ERROR;
    UCharsetDetector *detector = ucsdet_open(&status);
    if (U_FAILURE(status))
        return QString();
    ucsdet_setText(detector, bytes.constData(), int32_t(bytes.size()), &status);
    int32_t count = 0;
    const UCharsetMatch **matches = ucsdet_detectAll(detector, &count, &status);
    QString found;
    for (int32_t i = 0; U_SUCCESS(status) && i < count && found.isEmpty(); ++i) {
        const QString name = QString::fromLatin1(ucsdet_getName(matches[i], &status));
        // Multi-byte guesses for bytes that are not UTF-8 are the detector's weakest; the
        // single-byte encodings are checked by converting (undefined bytes, control characters).
        if (U_FAILURE(status) || name.startsWith(QLatin1String("UTF-")))
            continue;
        // The detector names some encodings that no converter opens ("IBM424_rtl", "IBM420_ltr":
        // the direction is the detector's own): those are not taken.
        const Converter converter = strictConverter(name);
        if (converter && ucnv_getMaxCharSize(converter.get()) == 1 && toUtf16(bytes, name))
            found = name;
    }
    ucsdet_close(detector);
    return found;
}

QByteArray decodeText(const QByteArray &bytes, const QString &encoding, const QString &name)
{
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
