#!/usr/bin/env python3
"""Prints the README's `skills_bundle!` example (the first `rust` block under
"Embed skills in an agent binary"), after checking that it is also
skills-bundle/README.md's, whose crate docs run it as a doctest; with
`--build-script`, the README's `build.rs` (the `rust` block of that section
that starts with `// build.rs`).

    python3 scripts/readme_example.py > src/main.rs    (from the repository root)
    python3 scripts/readme_example.py --build-script > build.rs

Used by scripts/check-packages.sh and scripts/bench-build-cost.sh.
"""

import re
import sys


def section():
    readme = open("README.md", encoding="utf-8").read()
    return readme.split("## Embed skills in an agent binary", 1)[1].split("\n## ", 1)[0]


def build_script():
    for code in re.findall(r"```rust\n(.*?)```", section(), re.S):
        if code.startswith("// build.rs\n"):
            return code
    sys.exit("the README's embedding section has no `// build.rs` block")


def example():
    code = re.search(r"```rust\n(.*?)```", section(), re.S).group(1)
    crate_readme = open("skills-bundle/README.md", encoding="utf-8").read()
    if code not in crate_readme:
        sys.exit("the README's example differs from skills-bundle/README.md's "
                 "(its crate docs, run as a doctest)")
    return code


if __name__ == "__main__":
    sys.stdout.write(build_script() if sys.argv[1:] == ["--build-script"] else example())
