"""The ORAS Python SDK's side of tests/supply/oci.rs.

    oras_interop.py pull HOST/REPO:TAG OUTDIR   -> saves each layer under its title
    oras_interop.py push HOST/REPO:TAG PACK [SIGNATURE]
        (run in the folder holding the files; ORAS wants relative paths)
        pushes them with the skill pack media types and an empty config
"""

import sys

import oras.client

PACK = "application/vnd.skills.pack.v1+zip"
SIGNATURE = "application/vnd.skills.pack.signature.v1.minisig"
EMPTY = "application/vnd.oci.empty.v1+json"


def main(argv):
    client = oras.client.OrasClient(insecure=True)
    if argv[1] == "pull":
        for path in client.pull(target=argv[2], outdir=argv[3]):
            print(path)
    elif argv[1] == "push":
        with open("config.json", "w") as config:
            config.write("{}")
        files = [f"{argv[3]}:{PACK}"]
        if len(argv) > 4:
            files.append(f"{argv[4]}:{SIGNATURE}")
        client.push(target=argv[2], files=files, manifest_config=f"config.json:{EMPTY}")
    else:
        sys.exit(f"unknown command {argv[1]!r}")


if __name__ == "__main__":
    main(sys.argv)
