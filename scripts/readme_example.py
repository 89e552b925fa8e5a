#!/usr/bin/env python3
"""Prints the README's `skills_bundle!` example (the first `rust` block under
"Embed skills in an agent binary"), after checking that it is also
skills-bundle/README.md's, whose crate docs run it as a doctest.

    python3 scripts/readme_example.py > src/main.rs    (from the repository root)

Used by scripts/check-packages.sh and scripts/bench-build-cost.sh.
"""

import re
import sys


def example():
    readme = open("README.md", encoding="utf-8").read()
    section = readme.split("## Embed skills in an agent binary", 1)[1]
    code = re.search(r"```rust\n(.*?)```", section, re.S).group(1)
    crate_readme = open("skills-bundle/README.md", encoding="utf-8").read()
    if code not in crate_readme:
        sys.exit("the README's example differs from skills-bundle/README.md's "
                 "(its crate docs, run as a doctest)")
    return code


if __name__ == "__main__":
    sys.stdout.write(example())
