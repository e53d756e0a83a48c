"""The test runner of openkeel.manila (tools/test is its entry point; `tools/test -h`).

plan: the matrix, the shards, the lanes and the stages a command line asks for (pure);
run: a step in a child process, timed, its CPU counted; the summary and failure digest;
groups: lanes side by side in the background; stages: one function per stage;
main: the order of a run.
"""
