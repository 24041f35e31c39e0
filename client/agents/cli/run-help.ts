/** The text `cairn run --help` adds after the options: the answer shapes and the exit codes. */
export const RUN_HELP = `
Answers: when stdin is a terminal, each question is asked at the prompt. When stdin is NOT a
terminal (CI, pipes), answers are read from stdin, one JSON answer per line, applied to the
interactions in the order they open (blank lines and lines starting with # are skipped; a
rejected answer is reported on stderr and the next line is tried for the same interaction):
  ask.query      {"text": "engineers"}
  ask.select     {"values": ["formal"]}
  ask.form       {"values": {"title": "Hi", "pages": 2}}
  plan.check     {"decision": "confirm"} | {"decision": "revise", "feedback": "..."}
                 | {"decision": "edit", "plan": {...}} | {"decision": "cancel"}
  tool.approval  {"decision": "approve"} | {"decision": "reject", "reason": "..."}
                 (the interaction's digest is filled in when left out)
  step.failure   {"decision": "retry" | "skip" | "abort"}
  budget         {"decision": "raise", "tokenBudget": 50000} | {"decision": "raise", "costBudgetUsd": 5} | {"decision": "stop"}
If stdin ends while a question waits, cairn stops following (exit 2); the agent keeps waiting.

Exit codes: 0 completed, 1 failed, 2 bad usage or configuration (or input ended), 3 cancelled.
Example: printf '%s\\n' '{"decision":"confirm"}' | cairn run "Write a brief" --confirm-plan --json`;
