from capture import C

GROUPS = """
mod m

# ungrouped one
a:

[group('zeta')]
[group('alpha')]
b:

[group('alpha')]
c:

[group('zeta')]
d:

alias dd := d
"""

WIDE = """
# short one
a:
# wide one
wide param1='aaaaaaaaaaaaaaaaaaaa' param2='bbbbbbbbbbbbbbbbbbbbbbbbbb':
[doc("line one\\nline two")]
multi:
# comment doc
[doc('attr doc')]
both:
alias w := wide
alias m := multi
[private]
hidden:
"""

NESTED = """
mod a
mod b
# top doc
top:
"""
NESTED_FILES = {"a.just": "y:\n[group('g')]\nx:\n", "b.just": "z:\n"}

RICHMOD = """
import 'imp.just'
# tools doc
[group('ops')]
mod tools
mod alpha
[group('ops')]
deploy:
zed:
alias t := tools::lint
alias z := zed
[group('dev')]
build:
"""
RICHMOD_FILES = {
  "imp.just": "[group('imp')]\nimported:\nearly:\n",
  "tools.just": "# lint it\nlint:\n[group('inner')]\nfmt:\nmod deep\n",
  "tools/deep.just": "bottom:\n",
  "alpha.just": "one:\n",
}

CASES = [
  C("listing_groups_example", GROUPS, "--list", files={"m.just": "x:\n"}),
  C("listing_group_filter_order", GROUPS, "--list", "--group", "zeta", "--group", "alpha", files={"m.just": "x:\n"}),
  C("listing_group_unknown", GROUPS, "--list", "--group", "nope", files={"m.just": "x:\n"}),
  C("listing_group_filter_unsorted", GROUPS, "--list", "--unsorted", files={"m.just": "x:\n"}),
  C("listing_wide_example", WIDE, "--list"),
  C("listing_wide_separate", WIDE, "--list", "--alias-style", "separate"),
  C("listing_wide_left", WIDE, "--list", "--alias-style", "left"),
  C("listing_wide_no_aliases", WIDE, "--list", "--no-aliases"),
  C("listing_long_alias_width", """
    # doc
    a:
    alias very_long_alias_name := a
    """, "--list"),
  C("listing_long_alias_width_no_aliases", """
    # doc
    a:
    alias very_long_alias_name := a
    """, "--list", "--no-aliases"),
  C("listing_submodules_recursive", NESTED, "--list", "--list-submodules", files=NESTED_FILES),
  C("listing_submodules_collapsed", NESTED, "--list", files=NESTED_FILES),
  C("listing_submodules_recursive_prefix", NESTED, "--list", "--list-submodules", "--list-prefix", "..", files=NESTED_FILES),
  C("listing_rich_modules", RICHMOD, "--list", files=RICHMOD_FILES),
  C("listing_rich_modules_unsorted", RICHMOD, "--list", "--unsorted", files=RICHMOD_FILES),
  C("listing_rich_modules_submodules", RICHMOD, "--list", "--list-submodules", files=RICHMOD_FILES),
  C("listing_rich_modules_submodules_unsorted", RICHMOD, "--list", "--list-submodules", "--unsorted", files=RICHMOD_FILES),
  C("listing_rich_modules_separate", RICHMOD, "--list", "--alias-style", "separate", files=RICHMOD_FILES),
  C("listing_rich_modules_group_ops", RICHMOD, "--list", "--group", "ops", files=RICHMOD_FILES),
  C("listing_rich_modules_group_in_submodule_list", RICHMOD, "--list", "--group", "ops", "--list-submodules", files=RICHMOD_FILES),
  C("listing_rich_modules_tools", RICHMOD, "--list", "tools", files=RICHMOD_FILES),
  C("listing_rich_modules_tools_deep", RICHMOD, "--list", "tools", "deep", files=RICHMOD_FILES),
  C("listing_rich_modules_summary", RICHMOD, "--summary", files=RICHMOD_FILES),
  C("listing_rich_modules_summary_unsorted", RICHMOD, "--summary", "--unsorted", files=RICHMOD_FILES),
  C("listing_rich_modules_groups", RICHMOD, "--groups", files=RICHMOD_FILES),
  C("listing_rich_modules_groups_unsorted", RICHMOD, "--groups", "--unsorted", files=RICHMOD_FILES),
  C("listing_rich_modules_groups_prefix", RICHMOD, "--groups", "--list-prefix", "* ", files=RICHMOD_FILES),
  C("listing_rich_modules_json", RICHMOD, "--json", files=RICHMOD_FILES),
  C("listing_rich_modules_variables", RICHMOD + "b := '1'\na := '2'\n", "--variables", files=RICHMOD_FILES),
  C("listing_rich_modules_color", RICHMOD, "--list", "--color", "always", files=RICHMOD_FILES),
  C("listing_rich_modules_color_submodules", RICHMOD, "--list", "--list-submodules", "--color", "always", files=RICHMOD_FILES),
  C("listing_rich_modules_heading", RICHMOD, "--list", "--list-heading", "H\n", "--list-prefix", "> ", "--list-submodules", files=RICHMOD_FILES),
  C("listing_rich_modules_show_alias", RICHMOD, "--show", "t", files=RICHMOD_FILES),
  C("listing_rich_modules_usage_alias", RICHMOD, "--usage", "t", files=RICHMOD_FILES),
  C("listing_empty_module_doc", """
    [doc("")]
    mod m
    """, "--list", files={"m.just": "x:\n"}),
  C("listing_module_doc_not_trimmed", """
    [doc("  spaced  ")]
    mod m
    """, "--list", files={"m.just": "x:\n"}),
  C("listing_recipe_whitespace_doc", """
    [doc("   ")]
    a:
    b:
    """, "--list"),
  C("listing_unicode_width", """
    # wide chars
    日本語:
    # ascii
    abcdefg:
    """, "--list"),
  C("listing_tab_width", """
    # tab
    a b="\t":
    c:
    """, "--list"),
  C("listing_exported_variadic_params", """
    a $x +y *$z:
    """, "--list"),
  C("listing_option_params", """
    set unstable
    [arg("v", long="verbose")]
    opts v="" level='1' *files:
    """, "--list"),
  C("listing_width_over_50", """
    # short
    a:
    # long one
    abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz_long:
    """, "--list"),
  C("listing_width_exactly_50", """
    # short
    a:
    # fifty
    abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwx:
    """, "--list"),
  C("listing_multiline_doc_with_aliases", """
    [doc("one\\ntwo")]
    a:
    alias b := a
    """, "--list"),
  C("listing_private_alias", """
    a:
    [private]
    alias b := a
    alias _c := a
    """, "--list"),
  C("listing_alias_to_private_recipe", """
    [private]
    a:
    alias b := a
    c:
    """, "--list"),
  C("listing_module_in_group_only", """
    [group('g')]
    mod m
    """, "--list", files={"m.just": "x:\n"}),
  C("listing_module_in_group_only_submodules", """
    [group('g')]
    mod m
    a:
    """, "--list", "--list-submodules", files={"m.just": "x:\n"}),
  C("listing_only_submodules_recursive", """
    mod a
    mod b
    """, "--list", "--list-submodules", files={"a.just": "x:\n", "b.just": "y:\n"}),
  C("listing_submodule_empty", """
    mod a
    r:
    """, "--list", "--list-submodules", files={"a.just": ""}),
  C("listing_module_alias_cross_separate_groups", """
    mod m
    alias x := m::r
    [group('g')]
    a:
    """, "--list", files={"m.just": "# rdoc\nr p:\n"}),
  C("listing_cross_alias_in_submodule_listing", """
    mod m
    """, "--list", "--list-submodules", files={"m.just": "mod n\nalias q := n::r\nz:\n", "m/n.just": "r:\n"}),
  C("listing_summary_aliases_excluded", """
    a:
    alias b := a
    """, "--summary"),
  C("listing_summary_quiet_empty", "\n", "--summary", "--quiet"),
  C("listing_summary_private_and_underscore", """
    mod _m
    [private]
    a:
    _b:
    c:
    """, "--summary", files={"_m.just": "x:\n"}),
  C("listing_groups_empty", "a:\n", "--groups"),
  C("listing_groups_private_recipe_excluded", """
    [private]
    [group('hidden')]
    a:
    [group('shown')]
    b:
    """, "--groups"),
  C("listing_default_list_flag", """
    a:
    b:
    """, "--default-list"),
  C("listing_default_list_setting", """
    set default-list
    a:
    b:
    """),
  C("listing_list_nonexistent_module", "a:\n", "--list", "nope"),
  C("listing_list_module_alias", """
    mod m
    """, "--list", "m", files={"m.just": "mod n\n", "m/n.just": "r:\n"}),
  C("listing_variables_no_private_and_sorted", """
    [private]
    p := '1'
    _q := '1'
    z := '1'
    export y := '2'
    """, "--variables"),
  C("listing_usage_options", """
    set lists
    set unstable
    [arg("v", long="verbose", short="v", value="1", help="be loud")]
    [arg("level", long="lvl", help="the level", pattern="[0-9]+")]
    opts v="" level='1' *files:
    """, "--usage", "opts"),
  C("listing_usage_only_options", """
    set unstable
    [arg("n", short="n")]
    req n:
    """, "--usage", "req"),
  C("listing_usage_no_params", "a:\n", "--usage", "a"),
  C("listing_usage_unknown", "a:\n", "--usage", "b"),
  C("listing_show_nested_module", """
    mod m
    """, "--show", "m::n::r", files={"m.just": "mod n\n", "m/n.just": "# d\nr:\n  echo\n"}),
  C("listing_show_absent", """
    mod? m
    b: m::x
    """, "--show", "b"),
  C("listing_show_absent_module", """
    mod? m
    b:
    """, "--show", "m::x"),
  C("listing_separate_alias_in_each_group", """
    [group('x')]
    [group('y')]
    # doc
    a p:
    alias b := a
    c:
    """, "--list", "--alias-style", "separate"),
  C("listing_left_style_multiline", """
    [doc("one\\ntwo")]
    a:
    alias b := a
    alias c := a
    # d
    dd:
    alias e := dd
    """, "--list", "--alias-style", "left"),
  C("listing_unsorted_nested_imports", """
    import 'a.just'
    import 'b.just'
    zz:
    aa:
    """, "--list", "--unsorted", files={"a.just": "import 'c.just'\nma:\nla:\n", "b.just": "mb:\n", "c.just": "mc:\n"}),
  C("listing_unsorted_nested_imports_summary", """
    import 'a.just'
    import 'b.just'
    zz:
    aa:
    """, "--summary", "--unsorted", files={"a.just": "import 'c.just'\nma:\nla:\n", "b.just": "mb:\n", "c.just": "mc:\n"}),
  C("listing_unsorted_groups_from_imports", """
    import 'a.just'
    [group('z')]
    zz:
    [group('b')]
    [group('a')]
    aa:
    """, "--list", "--unsorted", files={"a.just": "[group('c')]\nma:\n"}),
  C("listing_unsorted_mod_in_import_group", """
    import 'a.just'
    [group('r')]
    rr:
    """, "--groups", "--unsorted", files={"a.just": "[group('m')]\nmod m\n[group('i')]\nii:\n", "m.just": "x:\n"}),
  C("listing_cross_alias_separate_and_grouped", """
    mod m
    alias x := m::r
    [group('g')]
    a:
    alias y := a
    """, "--list", "--alias-style", "separate", files={"m.just": "# rdoc\nr p:\n"}),
  C("listing_submodule_with_groups_recursive_blank_lines", """
    mod a
    mod b
    [group('g')]
    top:
    plain:
    """, "--list", "--list-submodules", files={"a.just": "[group('h')]\nx:\ny:\n", "b.just": "z:\n"}),
  C("listing_submodule_doc_multiline", """
    [doc("l1\\nl2")]
    mod m
    a:
    """, "--list", files={"m.just": "x:\n"}),
  C("listing_module_doc_comment_with_group_color", """
    # the doc
    [group('g')]
    mod m
    # rdoc
    a p='1':
    alias b := a
    """, "--list", "--color", "always", files={"m.just": "x:\n"}),
  C("listing_separate_color", """
    # rdoc
    a p='1':
    alias b := a
    """, "--list", "--color", "always", "--alias-style", "separate"),
  C("listing_left_color", """
    # rdoc
    a p='1':
    alias b := a
    """, "--list", "--color", "always", "--alias-style", "left"),
  C("listing_module_list_heading_depth", """
    mod m
    """, "--list", "m", "--list-heading", "HEAD\n", "--list-prefix", "-"),
  C("listing_groups_flag_color", """
    [group('g')]
    a:
    """, "--groups", "--color", "always"),
  C("listing_summary_color", """
    a:
    """, "--summary", "--color", "always"),
  C("listing_list_word_with_spaces_show", """
    mod a
    """, "--show", "a r", files={"a.just": "r:\n  echo\n"}),
  C("listing_list_double_colon_trailing", """
    mod a
    """, "--list", "a::", files={"a.just": "r:\n"}),
  C("listing_list_module_alias_followed", """
    mod a
    alias b := a
    """, "--list", "b", files={"a.just": "r:\n"}),
  C("listing_json_module_alias", """
    mod a
    alias b := a
    """, "--json", files={"a.just": "r:\n"}),
  C("listing_json_private_module_and_doc_attr", """
    [private]
    [doc('dd')]
    [group('x')]
    [group('y')]
    mod a
    """, "--json", files={"a.just": "[doc('r doc')]\nr:\n"}),
  C("listing_json_absent_module", """
    mod? a
    b: a::r
    alias c := a::r
    d:
    """, "--json"),
  C("listing_module_long_name_doc_inline", """
    # the doc
    mod abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz
    a:
    """, "--list", files={"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz.just": "r:\n"}),
  C("listing_unsorted_mod_offsets_across_imports", """
    import 'a.just'



    mod z
    mod b
    """, "--list", "--unsorted", files={"a.just": "mod y\nmod x\n", "z.just": "rz:\n", "b.just": "rb:\n", "y.just": "ry:\n", "x.just": "rx:\n"}),
  C("listing_unsorted_mod_offsets_across_imports_summary", """
    import 'a.just'



    mod z
    mod b
    """, "--summary", "--unsorted", files={"a.just": "mod y\nmod x\n", "z.just": "rz:\n", "b.just": "rb:\n", "y.just": "ry:\n", "x.just": "rx:\n"}),
  C("listing_unsorted_groups_modules_and_recipes", """
    [group('rr')]
    r:
    [group('mm')]
    mod m
    [group('rr')]
    mod n
    [group('zz')]
    s:
    """, "--list", "--unsorted", files={"m.just": "x:\n", "n.just": "y:\n"}),
  C("listing_list_recipe_as_module", "a:\n", "--list", "a"),
  C("listing_list_invalid_colons", """
    mod m
    """, "--list", "m::::x", files={"m.just": "r:\n"}),
  C("listing_list_trailing_single_colon", """
    mod m
    """, "--list", "m:", files={"m.just": "r:\n"}),
  C("listing_list_two_words_unknown_second", """
    mod m
    """, "--list", "m", "nope", files={"m.just": "r:\n"}),
  C("listing_list_private_module_explicit", """
    [private]
    mod m
    """, "--list", "m", files={"m.just": "r:\n"}),
  C("listing_show_three_words", """
    mod a
    """, "--show", "a", "b", "r", files={"a.just": "mod b\n", "a/b.just": "r:\n  echo\n"}),
  C("listing_show_recipe_then_extra", """
    a:
    """, "--show", "a", "b"),
  C("listing_usage_module_options", """
    mod m
    """, "--usage", "m::r", files={"m.just": "set unstable\n[arg('v', short='v', value='1')]\nr v='' a='x':\n"}),
  C("listing_no_aliases_cross", """
    mod m
    alias x := m::r
    a:
    """, "--list", "--no-aliases", files={"m.just": "r:\n"}),
  C("listing_summary_disabled_excluded", """
    mod? m
    a: m::r
    b:
    """, "--summary"),
  C("listing_groups_private_module_excluded", """
    [private]
    [group('hid')]
    mod m
    [group('vis')]
    mod n
    """, "--groups", files={"m.just": "r:\n", "n.just": "r:\n"}),
  C("listing_group_filter_module_group", """
    [group('g')]
    mod m
    [group('g')]
    a:
    b:
    """, "--list", "--group", "g", files={"m.just": "r:\n"}),
  C("listing_group_filter_repeated_same", """
    [group('g')]
    a:
    """, "--list", "--group", "g", "--group", "g"),
  C("listing_group_filter_private_group", """
    [private]
    [group('g')]
    a:
    """, "--list", "--group", "g"),
  C("listing_group_filter_in_submodule_target", """
    mod m
    """, "--list", "m", "--group", "inner", files={"m.just": "[group('inner')]\nr:\ns:\n"}),
  C("listing_heading_color", """
    # d `code` here
    a p="1" *q:
    """, "--list", "--color", "always", "--list-heading", "Hi:\n"),
  C("listing_variables_with_module_and_import", """
    import 'i.just'
    mod m
    z := '1'
    """, "--variables", files={"i.just": "a := '1'\n", "m.just": "q := '2'\n"}),
  C("listing_evaluate_module_alias", """
    mod m
    alias n := m
    """, "--evaluate", "n::a", files={"m.just": "a := 'v'\n"}),
  C("listing_default_list_module_setting_words", """
    mod m
    top:
    """, "m", files={"m.just": "set default-list\n[group('g')]\nr:\n"}),
  C("listing_default_list_with_heading_option", """
    set default-list
    a:
    """, "--list-heading", "X\n"),
  C("listing_nested_groups_recursive_color_unsorted", """
    [group('ops')]
    mod b
    mod a
    [group('ops')]
    z:
    y:
    """, "--list", "--list-submodules", "--unsorted", "--color", "always", "--list-prefix", "~", files={"a.just": "[group('q')]\nqq p='1':\nalias k := qq\nmod c\n", "a/c.just": "# deep doc\ncc:\n", "b.just": "bb:\n"}),
  C("listing_nested_modules_collapsed_in_nested_listing", """
    mod a
    """, "--list", "a", files={"a.just": "# doc a\nmod c\nx:\n", "a/c.just": "cc:\n"}),
  C("listing_unicode_alias_width", """
    # doc
    a:
    alias 日本語日本語 := a
    """, "--list"),
  C("listing_alias_to_recipe_with_params_width", """
    # doc
    a xxxxxxxxxx yyyyyyyyyy:
    alias b := a
    c:
    """, "--list"),
  C("listing_doc_backticks_color", """
    # run `make` now
    a:
    [doc("multi `x`\\nline")]
    b:
    """, "--list", "--color", "always"),
]
