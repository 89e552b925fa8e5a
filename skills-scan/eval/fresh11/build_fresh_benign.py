#!/usr/bin/env python3
"""Build the ELEVENTH fresh held-out benign corpus (/work/eval/fresh11/benign) from bare mirrors fetched with the
`fetch` tool into /work/.mirror/<owner>+<name>/repo. The selection, the exclusions, the near-copy check and the
writers are ../benignlib.py's (see its docstring); this file holds only what is this set's own: its allow-list of
repositories, its output folder and its split name. Python 3 standard library only; nothing from a mirror is run.

Output: /work/eval/fresh11/benign/<owner>+<name>/<skill>-<hash6>/ per skill, /work/eval/fresh11/benign/index.jsonl
and /work/eval/fresh11/MANIFEST-benign.tsv (repo, commit, path, licence, folder, files).

Repositories: REPOS, found with the search tool's repository listing (find_repos) and its path index (find_files:
which repositories hold skills/<name>/SKILL.md for common names), fetched as bare mirrors; none is in an earlier
manifest or on an earlier builder's candidate list, none is of a publisher of those, and none is one of the stores
that gather other publishers' skills wholesale (those were left off the list; a store that slipped in loses its
copies to the near-copy check).

A new selection depends on which earlier repositories' mirrors are present (they drive the exclusions); to get
exactly the committed set back, run with MANIFEST=<this folder>/MANIFEST-benign.tsv: every row is then re-extracted
at its recorded commit and nothing is selected."""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the committed builders
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benignlib  # noqa: E402

OUT = os.environ.get("OUT", "/work/eval/fresh11")
CAP = int(os.environ.get("CAP", "40"))
# Explicit allow-list: the repositories this set was drawn from (other helpers fetch unrelated, even hostile,
# repositories into /work/.mirror).
REPOS = """
rjmurillo/ai-agents 1337hero/claude-toolkit 23prime/agent-skills Abilityai/trinity-skills Adonis0123/adonis-skills
BjornMelin/dev-skills Caisin/skills ChatAndBuild/skills-repo DeerHide/agent_skills EATSTEAK/skills Dario-Arcos/ai-framework
0xd669/skills
DanielDxD/myapp-skills SumonMSelim/agentguard ThinkfleetAI/thinkfleet-engine Wagner85/squad-ai-infra arpayid/agentfull
autosre-ai/autosre full-stack-skills/devops-skills mattnowdev/super-review membranedev/application-skills
pledgeandgrow/pledge-skills saccerwin/antigravity-flow HaiJeng/skills TeddyAlbina/skills an8079/take-skills eveld/claude
evilsamaritan/agent-kit fasterthanlime/skills fworks-tech/agenthood ivanprytula/agent-forge jvalbuena/claude-skills
matlockx/workflow michael-freling/claude-code-config ortizeg/ai-cv-claude-skills shashankcm95/power-loom
teachingai/full-stack-skills 0xb3i/codex-skills Anras573/AIchemist Christopher-Schulze/CR-Agent-Skills
DROOdotFOO/agent-skills FloAFDEV/flo-code-skills GTFerguson/claude-config Lee-SiHyeon/oh-my-copilot Leo-Atienza/atlas-claude
MaksimZinovev/pi-agent-config TranAnSE/claudekit UtsavBalar1231/oh-my-claudeagent
Vistyy/agent-harness YOSSII812001/claude-code-jarvis aks-builds/quality-skills ArthurDEV44/skills
CloudSecurityPartners/skills Cure-Consulting-Group/ProductEngineeringSkills Divkix/agent-skills GNSubrahmanyam/claude-skills
RikaiDev/kaido dekoza/oh-my-slop ISPOai/skills alemar11/skills buildrtech/dotagents
digitalocean-labs/do-app-platform-skills jihuanshe/skills timescale/pg-aiguide valksor/k0d3
Dxrk777/Dxrk-AI FelixRuiGao/Fermi TemplateMechanics/dt-pilot atlantic-blue/quay-crew chadleeshaw/dot-opencode
christopherclemmons/startupkit dennisonbertram/go-agent-harness filipemotta/devopsai-templates
grow-lead-agency/LXF-Skills-and-Agents ignidus/iscagent irisworks/iris-core
abatilo/vimrc bingeli1379/eli-workflow dpurge/agent-config harumi-io/claude-devops-plugin imarios/open-vibes
jcchikikomori/skills-md jyasuu/cheat-sheet matheusrod98/agents proompteng/lab
somospragma/cloudops-kiro-config AravindS-Wick/aravindhan-skills BobBurton9000/orchestra-defaults
Igasawa/Skills-personal Muhammad7839/code-skills ParkBeomMin/ai-global-settings PyModel/react-frontend-skills
Seung-Won-Yu/codex-agent-kit SunS1eep1ng/codex-dotfiles YuxiaoWang-520/codex-skills ZooplanktonAI/opencode-plugin-coding
BejeweledMe/codex-pro-agent-skills DavidNix/dotfiles Doarakko/dotfiles anton-winter-arch/dotagents berabundle/agent-skills
chitrank2050/agent-posture demodev-lab/claude-code-plugin-demokit ekozmdev/my-agent-skills KshitijBharambe/fable-skills
acesanderson/brian_claude analyticsrepo01/app_dev_skills bouwerp/agentic-framework davide-pi/claude-dev-kit
dheerapat/skills envoydev/agents-stack juyohan/john-plugin krealalejo/ia-skills littlelingo/context-engine
otenycom/talents timbuchinger/loadout tuannv14/claude-team-toolkit yashvanzara/database-skills
omer-metin/skills-for-antigravity
Ampel-Technologies/ampel-skills Chachamaru127/claude-code-harness Data-Wise/craft FantechLabs/skills
Kanevry/session-orchestrator LIFEAI/rdc-skills JimZwartveld/skills HypoxanthineOvO/hypo-workflow BugRoger/beastmode
CommandOSSLabs/ai-devkit Mesteriis/Engineering-Bible-AI Nevaberry/nevaberry-plugins PetrovC/ai-agent-kit
Tom-R-Main/siftable-skills abix-/claude-blueprints curphey/bosun cwilson613/pi-kit ericrisco/skills mwigge/agent-toolkit-bundle
""".split()
REPOS += os.environ.get("EXTRA_REPOS", "").split()
if os.environ.get("ONLY_REPOS"):
    REPOS = os.environ["ONLY_REPOS"].split()

if __name__ == "__main__":
    benignlib.build("fresh11", OUT, REPOS, os.path.dirname(os.path.abspath(__file__)), CAP)
