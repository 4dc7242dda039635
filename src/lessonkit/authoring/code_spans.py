"""Highlighted code with fewer elements, coloured exactly as before.

Pygments wraps every token of a code block in a span named for its token type, and most of a lesson
page's elements are those spans. Each is parsed, styled and laid out as the page starts, and the
theme's start-up walks them all (bench/FINDINGS.md). Some change nothing a reader sees:

- a name (`n`) or whitespace (`w`): the theme colours a name as the code around it, and whitespace
  not at all, so the text can stand without its span;
- a run of spans of one token type, side by side: one span holding the run's text reads the same.

Only the spans inside a `<code>` element are touched, which is where the theme's highlighting puts
them (a code block, a signature in the reference, highlighted inline code); a notebook's cells are
coloured by their own stylesheet and are left as they are. Copying, searching and the samples read
the code's text, which stays the same, character for character.
"""

from __future__ import annotations

import re

# Everything inside one <code> element; Pygments never nests one in another.
CODE = re.compile(r"(<code\b[^>]*>)(.*?)(</code>)", re.DOTALL)
# A token whose span the theme does not colour apart from the code around it. Pygments escapes a
# token's text, so its span holds no other element.
UNCOLOURED = re.compile(r'<span class="(?:n|w)">([^<]*)</span>')
# Two spans of one token type, nothing between them. Pygments' token classes are a few lowercase
# letters and digits; a highlighted line (`hll`) is a block of its own, and the course's own spans
# (a claim, say) have longer names, so neither is ever joined.
SAME_TYPE_PAIR = re.compile(r'<span class="((?!hll")[a-z][a-z0-9]{0,3})">([^<]*)</span><span class="\1">([^<]*)</span>')


def fewer_spans(code: str) -> str:
    """The inside of a highlighted `<code>` element with its names and whitespace unwrapped and each
    run of spans of one type joined in one span.

    Examples:
        >>> fewer_spans('<span class="n">budget</span><span class="w"> </span><span class="o">=</span>')
        'budget <span class="o">=</span>'
        >>> fewer_spans('<span class="p">(</span><span class="p">)</span><span class="p">:</span>')
        '<span class="p">():</span>'
        >>> fewer_spans('<span class="hll"><span class="n">x</span></span>')
        '<span class="hll">x</span>'
    """
    code = UNCOLOURED.sub(r"\1", code)
    joined = None
    while joined != code:
        joined, code = code, SAME_TYPE_PAIR.sub(r'<span class="\1">\2\3</span>', code)
    return code


def with_fewer_code_spans(page_html: str) -> str:
    """`page_html` with `fewer_spans` applied inside each of its `<code>` elements.

    Examples:
        >>> with_fewer_code_spans('<p>say <code class="highlight"><span class="n">x</span></code></p>')
        '<p>say <code class="highlight">x</code></p>'
        >>> with_fewer_code_spans('<pre><span class="n">a notebook cell</span></pre>')
        '<pre><span class="n">a notebook cell</span></pre>'
    """
    return CODE.sub(lambda found: found.group(1) + fewer_spans(found.group(2)) + found.group(3), page_html)
