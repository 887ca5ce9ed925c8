#!/usr/bin/python3
"""The function-length check: its scanner on small C++ snippets (what it must find, what must not
fool it), and the check itself on app/, engine/ and plugins/, so that the suite fails when a
function grows over 80 lines.

  ctest -R py_test_function_lengths     (or, from tools/: /usr/bin/python3 -m unittest tests.test_function_lengths)
"""
import os
import tempfile
import textwrap
import unittest

from glosa.checks import function_lengths as fl


def body(lines):
    """`lines` statements, one a line."""
    return "".join("    x += %d;\n" % k for k in range(lines))


def function_of(total_lines, name="f"):
    """A function `total_lines` long: signature, body, closing brace."""
    return "int %s(int x)\n{\n%s    return x;\n}\n" % (name, body(total_lines - 4))


def scan(text):
    return [(f.name, f.first_line, f.last_line) for f in fl.scan(textwrap.dedent(text))]


class Lengths(unittest.TestCase):
    def test_81_lines_is_over_and_80_is_not(self):
        for total in (80, 81):
            found = fl.scan(function_of(total))
            self.assertEqual([f.length for f in found], [total])
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "engine"))
            with open(os.path.join(root, "engine", "a.cpp"), "w") as f:
                f.write(function_of(80, "fits") + "\n" + function_of(81, "over"))
            long = fl.long_functions(root)
            self.assertEqual([(f.path, f.name, f.length) for f in long], [("engine/a.cpp", "over", 81)])

    def test_counted_from_the_signature_to_the_closing_brace(self):
        self.assertEqual(scan("""
            // a comment before is not counted
            template <typename T>
            static std::vector<T>
            twice(const T &value,
                  int n) {
                return {};
            }
            """), [("twice", 3, 8)])


class NotFooled(unittest.TestCase):
    def test_braces_in_comments_strings_and_chars(self):
        self.assertEqual(scan(r"""
            int f() {
                // a } in a line comment
                /* and { in
                   a block comment } */
                const char *s = "}{ \" }";
                char c = '}';
                char d = '\'';
                char e = '{';
                auto raw = R"x(a "} )" {)x";
                auto u8raw = u8R"(})";
                int million = 1'000'000;
                return 0;
            }
            int g() { return '{'; }
            """), [("f", 2, 14), ("g", 15, 15)])

    def test_braces_in_preprocessor_lines(self):
        self.assertEqual(scan("""
            #define OPEN {
            #define CLOSE \\
                }
            int f() { return 1; }
            """), [("f", 5, 5)])

    def test_lambdas_count_toward_their_function(self):
        self.assertEqual(scan("""
            void f() {
                auto g = [](int a) {
                    return [a] { return a; }();
                };
                struct Local { int m() { return 1; } };
            }
            """), [("f", 2, 7)])

    def test_a_lambda_in_a_variable_is_a_function(self):
        self.assertEqual(scan("""
            const auto square = [](int a) {
                return a * a;
            };
            """), [("square", 2, 4)])

    def test_constructors_with_initialiser_lists(self):
        self.assertEqual(scan("""
            Foo::Foo(int a, Bar b)
                : Base(a), m_b{b, {1, 2}}, m_c(std::vector<int>{1}),
                  m_d{}
            {
                init();
            }
            Foo::Foo() : m_a(1) {}
            """), [("Foo::Foo", 2, 7), ("Foo::Foo", 8, 8)])

    def test_namespaces_classes_and_header_members(self):
        self.assertEqual(scan("""
            namespace glosa::engine {
            namespace {
            struct Row { int a; int b; };
            const Row kRows[] = {
                {1, 2},
                {3, 4},
            };
            int helper() { return kRows[0].a; }
            }  // namespace
            extern "C" {
            int cfunction(void) { return 0; }
            }
            class Widget : public QObject {
                Q_OBJECT
                Q_PROPERTY(int value READ value)
            public:
                explicit Widget(QObject *parent = nullptr) : QObject(parent) {}
                int value() const noexcept { return m_value; }
                auto pair() const -> std::pair<int, int> { return {1, 2}; }
                bool operator==(const Widget &other) const { return m_value == other.m_value; }
                int operator()(int x) { return x; }
                ~Widget() override { clear(); }
            public Q_SLOTS:
                void clear() { m_value = 0; }
            Q_SIGNALS:
                void changed();
            private:
                struct Inner { void go() {} };
                enum class Kind : int { A, B };
                int m_value = 0;
                std::vector<int> m_list{1, 2, 3};
            };
            template <typename T>
            T Box<T>::get() const { return m_value; }
            }
            """), [("helper", 9, 9), ("cfunction", 12, 12), ("Widget::Widget", 18, 18),
                   ("Widget::value", 19, 19), ("Widget::pair", 20, 20),
                   ("Widget::operator==", 21, 21), ("Widget::operator()", 22, 22),
                   ("Widget::~Widget", 23, 23), ("Widget::clear", 25, 25),
                   ("Widget::Inner::go", 29, 29), ("Box<T>::get", 34, 35)])

    def test_data_tables_and_brace_initialisers_are_not_functions(self):
        self.assertEqual(scan("""
            constexpr std::array<int, 3> kA = {1, 2, 3};
            std::vector<std::string> kNames{"a", "b"};
            void declared(const Options &options = {}, int n = 0);
            int f(const Options &options = {}) { return 0; }
            """), [("f", 5, 5)])

    def test_unbalanced_braces_are_an_error_not_a_pass(self):
        with self.assertRaises(fl.ScanError):
            fl.scan("int f() {\n  return 1;\n")
        with self.assertRaises(fl.ScanError):
            fl.scan("int f() { return 1; }\n}\n")
        with self.assertRaises(fl.ScanError):
            fl.scan('int f() { const char *s = "no end; }\n')


class Lists(unittest.TestCase):
    def make_root(self, root):
        os.makedirs(os.path.join(root, "app"))
        with open(os.path.join(root, "app", "a.cpp"), "w") as f:
            f.write(function_of(90, "table") + function_of(10, "small"))

    def test_a_listed_function_is_allowed_and_a_stale_entry_reported(self):
        with tempfile.TemporaryDirectory() as root:
            self.make_root(root)
            problems, allowed = fl.check(root, exceptions={}, pending={})
            self.assertEqual(len(problems), 1)
            self.assertIn("app/a.cpp:1: table is 90 lines", problems[0])
            problems, allowed = fl.check(root, exceptions={("app/a.cpp", "table"): "a table"},
                                         pending={})
            self.assertEqual((problems, [f.name for f in allowed]), ([], ["table"]))
            problems, _ = fl.check(root, exceptions={("app/a.cpp", "table"): "a table"},
                                   pending={("app/a.cpp", "small"): "split elsewhere"})
            self.assertEqual(len(problems), 1)
            self.assertIn("small in PENDING is no longer over 80 lines", problems[0])

    def test_every_entry_gives_its_reason(self):
        for listed in (fl.EXCEPTIONS, fl.PENDING):
            for (path, name), reason in listed.items():
                self.assertTrue(path.startswith(fl.ROOTS) and name and reason.strip(), (path, name))


class FileLimits(unittest.TestCase):
    def test_a_file_over_its_folders_limit_is_found(self):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "gui", "views"))
            for name, lines in (("long.cpp", 601), ("fits.cpp", 600), ("notes.txt", 900)):
                with open(os.path.join(root, "gui", "views", name), "w") as f:
                    f.write("x\n" * lines)
            self.assertEqual(fl.long_files(root, {"gui": 600}),
                             [(os.path.join("gui", "views", "long.cpp"), 601, 600)])


class Repository(unittest.TestCase):
    def test_no_function_over_80_lines(self):
        problems, _ = fl.check()
        self.assertEqual(problems, [], "\n" + "\n".join(problems))

    def test_the_scan_sees_the_repository(self):
        names = set()
        for path in fl.source_files():
            with open(os.path.join(fl.REPO_ROOT, path), encoding="utf-8") as f:
                names |= {(fn.path, fn.name) for fn in fl.scan(f.read(), path)}
        self.assertIn(("engine/translation/translator.cpp", "Translator::translate"), names)
        self.assertGreater(len(names), 1500)


if __name__ == "__main__":
    unittest.main()
