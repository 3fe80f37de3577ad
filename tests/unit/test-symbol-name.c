/* test-symbol-name.c - function names shortened and made safe to show
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The names are real: mangled names from a g++ 12 build of a program that
 * keeps std::function objects in std::maps (and the lambdas, operators
 * and anonymous namespaces of the same program), demangled here by the
 * symbolizer's own hp_demangle() as a recording would; and demangled
 * names as `nm -C` printed them.
 */

#include "config.h"

#include <string.h>

#include "analysis/hp-symbol-name.h"
#include "symbols/hp-symbolizer.h"

/* std::map<std::string, std::map<std::string, std::function<…>>>'s tree,
 * _Auto_node's constructor: 28,570 characters demangled */
#define AUTO_NODE_CTOR \
  "_ZNSt8_Rb_treeINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESt4pairIKS5_St3mapIS5_St8functionIFS8_" \
  "IS5_St6vectorIS9_IFiRS7_RS8_IiS5_St4lessIiESaIS6_IKiS5_EEEEESaISK_EESC_IS5_ESaIS6_IS7_SM_EEERKS8_IS5_S9_IFviEE" \
  "SN_SaIS6_IS7_SS_EEEEESN_SaIS6_IS7_SZ_EEEESt10_Select1stIS13_ESN_SaIS13_EE10_Auto_nodeC1IJRKSt21piecewise_cons" \
  "truct_tSt5tupleIJOS5_EES1D_IJEEEEERS17_DpOT_"
/* the same tree's _M_emplace_hint_unique, which has a return type */
#define EMPLACE_HINT \
  "_ZNSt8_Rb_treeINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESt4pairIKS5_St3mapIS5_St8functionIFS8_" \
  "IS5_St6vectorIS9_IFiRS7_RS8_IiS5_St4lessIiESaIS6_IKiS5_EEEEESaISK_EESC_IS5_ESaIS6_IS7_SM_EEERKS8_IS5_S9_IFviEE" \
  "SN_SaIS6_IS7_SS_EEEEESN_SaIS6_IS7_SZ_EEEESt10_Select1stIS13_ESN_SaIS13_EE22_M_emplace_hint_uniqueIJRKSt21piece" \
  "wise_construct_tSt5tupleIJOS5_EES1C_IJEEEEESt17_Rb_tree_iteratorIS13_ESt23_Rb_tree_const_iteratorIS13_EDpOT_"
/* the outer map's find: 9,463 characters */
#define OUTER_MAP_FIND \
  "_ZNSt3mapINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEES_IS5_St8functionIFS_IS5_St6vectorIS6_IFiRKS5_RS_I" \
  "iS5_St4lessIiESaISt4pairIKiS5_EEEEESaISJ_EESA_IS5_ESaISC_IS8_SL_EEERKS_IS5_S6_IFviEESM_SaISC_IS8_SR_EEEEESM_SaIS" \
  "C_IS8_SY_EEESM_SaISC_IS8_S11_EEE4findES9_"
/* std::map<(anonymous namespace)::Widget, std::function<int (int)>>::find */
#define WIDGET_MAP_FIND "_ZNSt3mapIN12_GLOBAL__N_16WidgetESt8functionIFiiEESt4lessIS1_ESaISt4pairIKS1_S4_EEE4findERS8_"

static char *
demangle (const char *mangled)
{
  char *name = hp_demangle (mangled);

  g_assert_nonnull (name);
  return name;
}

static void
check (const char *name,
       const char *row,
       const char *shortest)
{
  g_autofree char *r = hp_symbol_name_shorten (name, HP_SYMBOL_NAME_ROW, 0);
  g_autofree char *s = hp_symbol_name_shorten (name, HP_SYMBOL_NAME_SHORT, 0);
  g_autofree char *none = hp_symbol_name_shorten (name, 0, 0);

  g_assert_cmpstr (r, ==, row);
  g_assert_cmpstr (s, ==, shortest);
  /* without flags only made safe to show: these are all safe already */
  g_assert_cmpstr (none, ==, name);
}

static void
test_long_templates (void)
{
  g_autofree char *ctor = demangle (AUTO_NODE_CTOR);
  g_autofree char *emplace = demangle (EMPLACE_HINT);
  g_autofree char *find = demangle (OUTER_MAP_FIND);

  g_assert_cmpuint (strlen (ctor), >, 17000);
  g_assert_cmpuint (strlen (find), >, 9000);
  check (ctor,
         "std::_Rb_tree<…>::_Auto_node::_Auto_node<…>(std::_Rb_tree<…>&, std::piecewise_construct_t const&, "
         "std::tuple<…>&&, std::tuple<>&&)",
         "std::_Rb_tree<…>::_Auto_node::_Auto_node<…>");
  /* "std::_Rb_tree_iterator<…> " in front is the return type */
  g_assert_true (g_str_has_prefix (emplace, "std::_Rb_tree_iterator<std::pair<"));
  check (emplace,
         "std::_Rb_tree<…>::_M_emplace_hint_unique<…>(std::_Rb_tree_const_iterator<…>, "
         "std::piecewise_construct_t const&, std::tuple<…>&&, std::tuple<>&&)",
         "std::_Rb_tree<…>::_M_emplace_hint_unique<…>");
  check (find, "std::map<…>::find(std::__cxx11::basic_string<…> const&)", "std::map<…>::find");
}

static void
test_nested_templates (void)
{
  g_autofree char *find = demangle (WIDGET_MAP_FIND);

  check (find, "std::map<…>::find((anonymous namespace)::Widget const&)", "std::map<…>::find");
  check ("std::vector<int, std::allocator<int> >::push_back(int const&)",
         "std::vector<…>::push_back(int const&)", "std::vector<…>::push_back");
  /* only the outermost list folds, also in parameters */
  check ("std::_Rb_tree_node<std::pair<(anonymous namespace)::Widget const, std::function<int (int)> > >::_M_valptr() const",
         "std::_Rb_tree_node<…>::_M_valptr() const", "std::_Rb_tree_node<…>::_M_valptr");
  check ("std::_Tuple_impl<0ul, (anonymous namespace)::Widget&&>::_Tuple_impl(std::_Tuple_impl<0ul, (anonymous namespace)::Widget&&>&&)",
         "std::_Tuple_impl<…>::_Tuple_impl(std::_Tuple_impl<…>&&)", "std::_Tuple_impl<…>::_Tuple_impl");
  /* short lists without templates in them stay, empty ones too */
  check ("std::function<int (int)>::operator()(int) const",
         "std::function<int (int)>::operator()(int) const", "std::function<int (int)>::operator()");
  check ("unsigned long std::__distance<int*>(int*, int*)",
         "std::__distance<int*>(int*, int*)", "std::__distance<int*>");
  check ("std::tuple<>::tuple()", "std::tuple<>::tuple()", "std::tuple<>::tuple");
  /* Rust */
  check ("core::ptr::drop_in_place<alloc::vec::Vec<u8>>", "core::ptr::drop_in_place<…>", "core::ptr::drop_in_place<…>");
  check ("<alloc::vec::Vec<T,A> as core::ops::drop::Drop>::drop",
         "<alloc::vec::Vec<T,A> as core::ops::drop::Drop>::drop",
         "<alloc::vec::Vec<T,A> as core::ops::drop::Drop>::drop");
  check ("<std::collections::hash::map::HashMap<alloc::string::String, alloc::vec::Vec<u8>> as core::clone::Clone>::clone",
         "<std::collections::hash::map::HashMap<…> as core::clone::Clone>::clone",
         "<std::collections::hash::map::HashMap<…> as core::clone::Clone>::clone");
}

static void
test_operators (void)
{
  check ("(anonymous namespace)::Widget::operator<((anonymous namespace)::Widget const&) const",
         "(anonymous namespace)::Widget::operator<((anonymous namespace)::Widget const&) const",
         "(anonymous namespace)::Widget::operator<");
  check ("bool std::operator< <char, std::char_traits<char>, std::allocator<char> >"
         "(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&, char const*)",
         "std::operator< <…>(std::__cxx11::basic_string<…> const&, char const*)",
         "std::operator< <…>");
  check ("std::basic_ostream<char, std::char_traits<char> >& std::operator<< <std::char_traits<char> >"
         "(std::basic_ostream<char, std::char_traits<char> >&, char const*)",
         "std::operator<< <…>(std::basic_ostream<…>&, char const*)",
         "std::operator<< <…>");
  check ("std::less<(anonymous namespace)::Widget>::operator()((anonymous namespace)::Widget const&, (anonymous namespace)::Widget const&) const",
         "std::less<…>::operator()((anonymous namespace)::Widget const&, (anonymous namespace)::Widget const&) const",
         "std::less<…>::operator()");
  check ("Foo::operator->() const", "Foo::operator->() const", "Foo::operator->");
  check ("Foo::operator->*(int)", "Foo::operator->*(int)", "Foo::operator->*");
  check ("Foo::operator<=>(Foo const&) const", "Foo::operator<=>(Foo const&) const", "Foo::operator<=>");
  check ("Foo::operator>>=(int)", "Foo::operator>>=(int)", "Foo::operator>>=");
  check ("Foo::operator>(Foo const&) const", "Foo::operator>(Foo const&) const", "Foo::operator>");
  check ("Foo::operator,(Foo const&)", "Foo::operator,(Foo const&)", "Foo::operator,");
  check ("std::vector<int, std::allocator<int> >::operator[](unsigned long)",
         "std::vector<…>::operator[](unsigned long)", "std::vector<…>::operator[]");
  check ("operator new(unsigned long)", "operator new(unsigned long)", "operator new");
  check ("operator delete[](void*)", "operator delete[](void*)", "operator delete[]");
  check ("Foo::operator std::map<int, int, std::less<int>, std::allocator<std::pair<int const, int> > >() const",
         "Foo::operator std::map<…>() const", "Foo::operator std::map<…>");
  check ("std::_Rb_tree_iterator<std::pair<(anonymous namespace)::Widget const, std::function<int (int)> > >::operator++()",
         "std::_Rb_tree_iterator<…>::operator++()", "std::_Rb_tree_iterator<…>::operator++");
}

static void
test_lambdas (void)
{
  g_autofree char *invoke = demangle ("_ZNSt17_Function_handlerIFiiEZ4mainEUliE_E9_M_invokeERKSt9_Any_dataOi");
  g_autofree char *call = demangle ("_ZZ4mainENKUliE_clEi");
  g_autofree char *forward = demangle ("_ZSt7forwardIRZ4mainEUliE_EOT_RNSt16remove_referenceIS2_E4typeE");

  check (call, "main::{lambda(int)#1}::operator()(int) const", "main::{lambda(int)#1}::operator()");
  check (invoke, "std::_Function_handler<…>::_M_invoke(std::_Any_data const&, int&&)", "std::_Function_handler<…>::_M_invoke");
  /* "main::{lambda(int)#1}& " is the return type */
  g_assert_cmpstr (forward, ==, "main::{lambda(int)#1}& std::forward<main::{lambda(int)#1}&>(std::remove_reference<main::{lambda(int)#1}&>::type&)");
  check (forward, "std::forward<…>(std::remove_reference<…>::type&)", "std::forward<…>");
  check ("void std::__invoke_impl<void, main::{lambda()#1}>(std::__invoke_other, main::{lambda()#1}&&)",
         "std::__invoke_impl<…>(std::__invoke_other, main::{lambda()#1}&&)", "std::__invoke_impl<…>");
  check ("typeinfo for main::{lambda(int)#1}", "typeinfo for main::{lambda(int)#1}", "typeinfo for main::{lambda(int)#1}");
  check ("Foo::run()::{lambda(std::vector<int, std::allocator<int> > const&)#2}::operator()(std::vector<int, std::allocator<int> > const&) const",
         "Foo::run()::{lambda(std::vector<…> const&)#2}::operator()(std::vector<…> const&) const",
         "Foo::run()::{lambda(std::vector<…> const&)#2}::operator()");
}

static void
test_parameters (void)
{
  /* a function pointer among the parameters */
  check ("apply(int (*)(int, char const*), int)", "apply(int (*)(int, char const*), int)", "apply");
  check ("qsort_r(void*, unsigned long, unsigned long, int (*)(void const*, void const*, void*), void*)",
         "qsort_r(void*, unsigned long, unsigned long, int (*)(void const*, void const*, void*), void*)", "qsort_r");
  /* a function returning a function pointer stays whole */
  check ("void (*signal_handler(int))(int)", "void (*signal_handler(int))(int)", "void (*signal_handler(int))(int)");
  /* clones keep their tag, thunks their phrase */
  check ("foo(int) [clone .cold]", "foo(int) [clone .cold]", "foo [clone .cold]");
  check ("std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::_M_construct<char const*>"
         "(char const*, char const*, std::forward_iterator_tag) [clone .isra.0]",
         "std::__cxx11::basic_string<…>::_M_construct<char const*>(char const*, char const*, std::forward_iterator_tag) [clone .isra.0]",
         "std::__cxx11::basic_string<…>::_M_construct<char const*> [clone .isra.0]");
  check ("non-virtual thunk to Foo::bar(int)", "non-virtual thunk to Foo::bar(int)", "non-virtual thunk to Foo::bar");
  check ("Foo::bar() &&", "Foo::bar() &&", "Foo::bar");
  check ("Foo::get[abi:cxx11]() const", "Foo::get[abi:cxx11]() const", "Foo::get[abi:cxx11]");
  check ("std::allocator<char>::~allocator()@GLIBCXX_3.4", "std::allocator<char>::~allocator()@GLIBCXX_3.4",
         "std::allocator<char>::~allocator");
}

static void
test_not_cpp (void)
{
  /* C, placeholders, and names whose brackets do not pair up */
  check ("count_word", "count_word", "count_word");
  check ("[unknown]", "[unknown]", "[unknown]");
  check ("[truncated]", "[truncated]", "[truncated]");
  check ("compress_block.cold", "compress_block.cold", "compress_block.cold");
  check ("0x7f12a0", "0x7f12a0", "0x7f12a0");
  check ("a < b", "a < b", "a < b");
  check ("f(int", "f(int", "f(int");
  check ("f)(", "f)(", "f)(");
  check ("g>(x)", "g>(x)", "g>");
  check ("LazyCompile:~handler /srv/app.js:12", "LazyCompile:~handler /srv/app.js:12", "LazyCompile:~handler /srv/app.js:12");
  /* markup is text */
  check ("<b>bold</b> & amp;", "<b>bold</b> & amp;", "<b>bold</b> & amp;");
}

static void
test_sanitize (void)
{
  g_autofree char *invalid = hp_symbol_name_shorten ("bad\xff\xfe name\xc3", HP_SYMBOL_NAME_SHORT, 0);
  g_autofree char *esc = hp_symbol_name_shorten ("red\x1b[31mtext\nnext\ttab\x7f", HP_SYMBOL_NAME_SHORT, 0);
  g_autofree char *bidi = hp_symbol_name_sanitize ("abc\xe2\x80\xae" "cba\xc2\x85", -1, 0);
  g_autofree char *empty = hp_symbol_name_shorten ("", HP_SYMBOL_NAME_ROW, 0);
  g_autofree char *blank = hp_symbol_name_shorten ("   ", 0, 0);
  g_autofree char *null = hp_symbol_name_shorten (NULL, HP_SYMBOL_NAME_ROW, 0);
  g_autofree char *nul = hp_symbol_name_sanitize ("a\0b", 3, 0);
  g_autofree char *template_bad = hp_symbol_name_shorten ("std::vector<\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff>::f(\x1b)",
                                                          HP_SYMBOL_NAME_ROW, 0);

  g_assert_true (g_utf8_validate (invalid, -1, NULL));
  g_assert_cmpstr (invalid, ==, "bad\xef\xbf\xbd\xef\xbf\xbd name\xef\xbf\xbd");
  g_assert_cmpstr (esc, ==, "red^[[31mtext⏎next⇥tab^?");
  g_assert_cmpstr (bidi, ==, "abc\xef\xbf\xbd" "cba\xef\xbf\xbd");
  g_assert_cmpstr (empty, ==, "[no name]");
  g_assert_cmpstr (blank, ==, "[no name]");
  g_assert_cmpstr (null, ==, "[no name]");
  g_assert_cmpstr (nul, ==, "a^@b");
  g_assert_cmpstr (template_bad, ==, "std::vector<…>::f(^[)");
  g_assert_true (g_utf8_validate (template_bad, -1, NULL));
}

static void
test_caps (void)
{
  g_autofree char *ctor = demangle (AUTO_NODE_CTOR);
  g_autofree char *tip = hp_symbol_name_sanitize (ctor, -1, HP_SYMBOL_NAME_TOOLTIP_CHARS);
  g_autofree char *whole = hp_symbol_name_sanitize (ctor, -1, 0);
  g_autofree char *cut = hp_symbol_name_shorten (ctor, 0, 100);
  g_autofree char *row = hp_symbol_name_shorten (ctor, HP_SYMBOL_NAME_ROW, 40);
  g_autofree char *exact = hp_symbol_name_sanitize ("abcdef", -1, 6);
  g_autofree char *one_over = hp_symbol_name_sanitize ("abcdefg", -1, 6);
  g_autofree char *wide = hp_symbol_name_sanitize ("ééééééé", -1, 6);

  g_assert_cmpstr (whole, ==, ctor);
  g_assert_cmpint (g_utf8_strlen (tip, -1), ==, HP_SYMBOL_NAME_TOOLTIP_CHARS);
  g_assert_true (g_str_has_suffix (tip, "…"));
  g_assert_true (strncmp (tip, ctor, strlen (tip) - strlen ("…")) == 0);

  /* cut in the middle, keeping the end, which tells functions apart */
  g_assert_cmpint (g_utf8_strlen (cut, -1), ==, 100);
  g_assert_true (g_str_has_prefix (cut, "std::_Rb_tree<std::__cxx11::"));
  g_assert_true (g_str_has_suffix (cut, "std::tuple<>&&)"));
  g_assert_nonnull (strstr (cut, "…"));
  g_assert_cmpint (g_utf8_strlen (row, -1), ==, 40);
  g_assert_true (g_str_has_suffix (row, "std::tuple<>&&)"));

  g_assert_cmpstr (exact, ==, "abcdef");
  g_assert_cmpstr (one_over, ==, "abcde…");
  g_assert_cmpstr (wide, ==, "ééééé…");
}

/* Shortening is cheap enough to do for every function of a capture at load. */
static void
test_speed (void)
{
  g_autofree char *ctor = demangle (AUTO_NODE_CTOR);
  gint64 start = g_get_monotonic_time ();

  for (guint i = 0; i < 100; i++)
    {
      g_autofree char *s = hp_symbol_name_shorten (ctor, HP_SYMBOL_NAME_SHORT, 0);

      g_assert_cmpuint (strlen (s), <, 100);
    }
  /* 2.8 MB of names: a few ms; far from a second even under valgrind */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/symbol-name/long-templates", test_long_templates);
  g_test_add_func ("/symbol-name/nested-templates", test_nested_templates);
  g_test_add_func ("/symbol-name/operators", test_operators);
  g_test_add_func ("/symbol-name/lambdas", test_lambdas);
  g_test_add_func ("/symbol-name/parameters", test_parameters);
  g_test_add_func ("/symbol-name/not-cpp", test_not_cpp);
  g_test_add_func ("/symbol-name/sanitize", test_sanitize);
  g_test_add_func ("/symbol-name/caps", test_caps);
  g_test_add_func ("/symbol-name/speed", test_speed);
  return g_test_run ();
}
