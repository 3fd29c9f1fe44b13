<?xml version='1.0' encoding='utf-8'?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>AgentDialog</name>
    <message>
        <source>Edit agent</source>
        <translation>Edit agent</translation>
    </message>
    <message>
        <source>New agent</source>
        <translation>New agent</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Runtime</source>
        <translation>Runtime</translation>
    </message>
    <message>
        <source>Permissions</source>
        <translation>Permissions</translation>
    </message>
    <message>
        <source>Providers…</source>
        <translation>Providers…</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Model</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Browse…</translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation>Workspace</translation>
    </message>
    <message>
        <source>Optional system prompt</source>
        <translation>Optional system prompt</translation>
    </message>
    <message>
        <source>Instructions</source>
        <translation>Instructions</translation>
    </message>
    <message>
        <source>Ask before edits and commands</source>
        <translation>Ask before edits and commands</translation>
    </message>
    <message>
        <source>Accept file edits, ask before commands</source>
        <translation>Accept file edits, ask before commands</translation>
    </message>
    <message>
        <source>Plan only (no changes)</source>
        <translation>Plan only (no changes)</translation>
    </message>
    <message>
        <source>Never ask (trusted workspace)</source>
        <translation>Never ask (trusted workspace)</translation>
    </message>
    <message>
        <source>No model fits this runtime yet: add an Anthropic provider, or mark an Anthropic-compatible one, in Providers.</source>
        <translation>No model fits this runtime yet: add an Anthropic provider, or mark an Anthropic-compatible one, in Providers.</translation>
    </message>
    <message>
        <source>No API key is stored for %1: %2 signs in with your own %2 login.</source>
        <translation>No API key is stored for %1: %2 signs in with your own %2 login.</translation>
    </message>
    <message>
        <source>No API key is stored for %1, and %2 needs one: add it in Providers.</source>
        <translation>No API key is stored for %1, and %2 needs one: add it in Providers.</translation>
    </message>
    <message>
        <source>Choose a workspace folder</source>
        <translation>Choose a workspace folder</translation>
    </message>
    <message>
        <source>Give the agent a name.</source>
        <translation>Give the agent a name.</translation>
    </message>
    <message>
        <source>No agent runtime is available.</source>
        <translation>No agent runtime is available.</translation>
    </message>
    <message>
        <source>The workspace folder does not exist.</source>
        <translation>The workspace folder does not exist.</translation>
    </message>
    <message>
        <source>%1 reaches this model through Cherry's API gateway (Settings, API gateway).</source>
        <translation>%1 reaches this model through Cherry's API gateway (Settings, API gateway).</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP servers</translation>
    </message>
    <message>
        <source>Skills</source>
        <translation>Skills</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>Agent</translation>
    </message>
</context>
<context>
    <name>AgentRuntime</name>
    <message>
        <source>agent.runtime.claude_code</source>
        <translation>Claude Code</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Read</source>
        <translation>Read files</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Glob</source>
        <translation>Find files by pattern</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Grep</source>
        <translation>Search file contents</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.LS</source>
        <translation>List folders</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Write</source>
        <translation>Write files</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Edit</source>
        <translation>Edit files</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.MultiEdit</source>
        <translation>Edit files in several places</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.NotebookEdit</source>
        <translation>Edit notebooks</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Bash</source>
        <translation>Run shell commands</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.BashOutput</source>
        <translation>Read shell output</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.KillShell</source>
        <translation>Stop a shell</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.WebFetch</source>
        <translation>Fetch web pages</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.WebSearch</source>
        <translation>Search the web</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.Task</source>
        <translation>Run a sub-agent</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.TodoWrite</source>
        <translation>Keep a to-do list</translation>
    </message>
    <message>
        <source>agent.runtime.claude_code.tool.ExitPlanMode</source>
        <translation>Leave plan mode</translation>
    </message>
    <message>
        <source>agent.runtime.pi</source>
        <translation>pi</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.read</source>
        <translation>Read files</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.grep</source>
        <translation>Search file contents</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.find</source>
        <translation>Find files</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.ls</source>
        <translation>List folders</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.edit</source>
        <translation>Edit files</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.write</source>
        <translation>Write files</translation>
    </message>
    <message>
        <source>agent.runtime.pi.tool.bash</source>
        <translation>Run shell commands</translation>
    </message>
    <message>
        <source>agent.runtime.acp</source>
        <translation>ACP agent</translation>
    </message>
    <message>
        <source>agent.runtime.acp.claude-agent-acp</source>
        <translation>Claude Agent</translation>
    </message>
    <message>
        <source>agent.runtime.acp.opencode</source>
        <translation>opencode</translation>
    </message>
</context>
<context>
    <name>ApprovalCard</name>
    <message>
        <source>Deny (Esc)</source>
        <translation>Deny (Esc)</translation>
    </message>
    <message>
        <source>Allow (Enter)</source>
        <translation>Allow (Enter)</translation>
    </message>
    <message>
        <source>Allow the agent to run %1?</source>
        <translation>Allow the agent to run %1?</translation>
    </message>
    <message>
        <source>Always allow %1 in this session</source>
        <translation>Always allow %1 in this session</translation>
    </message>
    <message>
        <source>Approve plan</source>
        <translation>Approve plan</translation>
    </message>
    <message>
        <source>Keep planning</source>
        <translation>Keep planning</translation>
    </message>
    <message>
        <source>The agent's plan is ready</source>
        <translation>The agent's plan is ready</translation>
    </message>
    <message>
        <source>Read it above. Approve it and the agent starts working, or keep planning and tell it what to change.</source>
        <translation>Read it above. Approve it and the agent starts working, or keep planning and tell it what to change.</translation>
    </message>
    <message>
        <source>Deny with a reason (optional): tell the agent what to do instead</source>
        <translation>Deny with a reason (optional): tell the agent what to do instead</translation>
    </message>
    <message>
        <source>%1 moves here, then Enter allows and Esc denies</source>
        <translation>%1 moves here, then Enter allows and Esc denies</translation>
    </message>
    <message>
        <source>What should change in the plan? (optional)</source>
        <translation>What should change in the plan? (optional)</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>Allow</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>Deny</translation>
    </message>
</context>
<context>
    <name>ChatHeader</name>
    <message>
        <source>Model</source>
        <translation>Model</translation>
    </message>
    <message>
        <source>Providers…</source>
        <translation>Providers…</translation>
    </message>
    <message>
        <source>Add providers, models and API keys</source>
        <translation>Add providers, models and API keys</translation>
    </message>
    <message>
        <source>Open Providers…</source>
        <translation>Open Providers…</translation>
    </message>
    <message>
        <source>Choose a model…</source>
        <translation>Choose a model…</translation>
    </message>
    <message>
        <source>%1 (unavailable)</source>
        <translation>%1 (unavailable)</translation>
    </message>
    <message>
        <source>No models: add a provider first</source>
        <translation>No models: add a provider first</translation>
    </message>
    <message>
        <source>Ask several models at once; their answers show side by side</source>
        <translation>Ask several models at once; their answers show side by side</translation>
    </message>
    <message>
        <source>Ask only this chat's model</source>
        <translation>Ask only this chat's model</translation>
    </message>
    <message>
        <source>+ %1</source>
        <translation>+ %1</translation>
    </message>
    <message>
        <source>Compare with…</source>
        <translation>Compare with…</translation>
    </message>
    <message>
        <source>%1 (needs an API key)</source>
        <translation>%1 (needs an API key)</translation>
    </message>
    <message>
        <source>Add the key of %1 in Providers to ask this model</source>
        <translation>Add the key of %1 in Providers to ask this model</translation>
    </message>
</context>
<context>
    <name>ChatWindow</name>
    <message>
        <source>Cherry Desktop</source>
        <translation>Cherry Desktop</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;File</translation>
    </message>
    <message>
        <source>Open in new window</source>
        <translation>Open in new window</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>New chat</translation>
    </message>
    <message>
        <source>New agent…</source>
        <translation>New agent…</translation>
    </message>
    <message>
        <source>Providers and API keys…</source>
        <translation>Providers and API keys…</translation>
    </message>
    <message>
        <source>Settings…</source>
        <translation>Settings…</translation>
    </message>
    <message>
        <source>Close window</source>
        <translation>Close window</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Quit</translation>
    </message>
    <message>
        <source>Open or create a chat to write a message</source>
        <translation>Open or create a chat to write a message</translation>
    </message>
    <message>
        <source>Queued for the next turn</source>
        <translation>Queued for the next turn</translation>
    </message>
    <message>
        <source>Steered into the running turn</source>
        <translation>Steered into the running turn</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>New session</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>Rename</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Delete</translation>
    </message>
    <message>
        <source>Delete this conversation?</source>
        <translation>Delete this conversation?</translation>
    </message>
    <message>
        <source>This part of the app is not available yet (%1).</source>
        <translation>This part of the app is not available yet (%1).</translation>
    </message>
    <message>
        <source>%1 is allowed without asking for the rest of this session</source>
        <translation>%1 is allowed without asking for the rest of this session</translation>
    </message>
    <message>
        <source>Export to Markdown…</source>
        <translation>Export to Markdown…</translation>
    </message>
    <message>
        <source>That message is on another branch of this chat</source>
        <translation>That message is on another branch of this chat</translation>
    </message>
    <message>
        <source>Back up…</source>
        <translation>Back up…</translation>
    </message>
    <message>
        <source>Restore…</source>
        <translation>Restore…</translation>
    </message>
    <message>
        <source>Show sidebar</source>
        <translation>Show sidebar</translation>
    </message>
    <message>
        <source>Show or hide the sidebar (%1)</source>
        <translation>Show or hide the sidebar (%1)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;View</translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Attach images or text files (or paste / drop them here)</source>
        <translation>Attach images or text files (or paste / drop them here)</translation>
    </message>
    <message>
        <source>Attach…</source>
        <translation>Attach…</translation>
    </message>
    <message>
        <source>Message (Enter to send, Shift+Enter for a new line)</source>
        <translation>Message (Enter to send, Shift+Enter for a new line)</translation>
    </message>
    <message>
        <source>Steer now</source>
        <translation>Steer now</translation>
    </message>
    <message>
        <source>Inject into the running turn (Ctrl+Enter)</source>
        <translation>Inject into the running turn (Ctrl+Enter)</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Queue</translation>
    </message>
    <message>
        <source>Send as the next turn (Enter)</source>
        <translation>Send as the next turn (Enter)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stop</translation>
    </message>
    <message>
        <source>Stop the reply (Esc)</source>
        <translation>Stop the reply (Esc)</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Send</translation>
    </message>
    <message>
        <source>Send (Enter)</source>
        <translation>Send (Enter)</translation>
    </message>
    <message>
        <source>Replying… Ctrl+Enter steers, Enter queues, Esc stops.</source>
        <translation>Replying… Ctrl+Enter steers, Enter queues, Esc stops.</translation>
    </message>
    <message>
        <source>Editing a sent message: Enter sends it again, Esc cancels.</source>
        <translation>Editing a sent message: Enter sends it again, Esc cancels.</translation>
    </message>
    <message>
        <source>Replying… Enter queues the next turn, Esc stops.</source>
        <translation>Replying… Enter queues the next turn, Esc stops.</translation>
    </message>
</context>
<context>
    <name>EmptyState</name>
    <message>
        <source>Nothing is open</source>
        <translation>Nothing is open</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>New chat</translation>
    </message>
    <message>
        <source>New agent…</source>
        <translation>New agent…</translation>
    </message>
    <message>
        <source>Providers and API keys…</source>
        <translation>Providers and API keys…</translation>
    </message>
    <message>
        <source>Chats answer with a model of one of your providers: add an API key in Providers, or use a local server such as Ollama. Claude Code agents work in a folder you choose and can use your own Claude Code login.

To try everything offline, without an account, start the app with cherry-desktop --demo</source>
        <translation>Chats answer with a model of one of your providers: add an API key in Providers, or use a local server such as Ollama. Claude Code agents work in a folder you choose and can use your own Claude Code login.

To try everything offline, without an account, start the app with cherry-desktop --demo</translation>
    </message>
    <message>
        <source>Open a chat or an agent session from the list on the left, or start something new.</source>
        <translation>Open a chat or an agent session from the list on the left, or start something new.</translation>
    </message>
    <message>
        <source>Welcome to Cherry Desktop</source>
        <translation>Welcome to Cherry Desktop</translation>
    </message>
    <message>
        <source>Create a chat to talk with a model, or an agent to let Claude Code work in a folder of yours.</source>
        <translation>Create a chat to talk with a model, or an agent to let Claude Code work in a folder of yours.</translation>
    </message>
    <message>
        <source>This is Cherry's offline demo: no account, no network. Open the demo agent's session on the left to watch an agent run a tool, approve it, and steer it while it works; or start a new chat, which the demo model answers.</source>
        <translation>This is Cherry's offline demo: no account, no network. Open the demo agent's session on the left to watch an agent run a tool, approve it, and steer it while it works; or start a new chat, which the demo model answers.</translation>
    </message>
</context>
<context>
    <name>ErrorBlock</name>
    <message>
        <source>The reply failed: %1</source>
        <translation>The reply failed: %1</translation>
    </message>
</context>
<context>
    <name>IssueWords</name>
    <message>
        <source>No usable keyring backend was found, so API keys cannot be stored. On Linux install and unlock a Secret Service provider (GNOME Keyring or KWallet), or `pip install keyrings.alt` for a file-based keyring; then restart Cherry Desktop.</source>
        <translation>No usable keyring backend was found, so API keys cannot be stored. On Linux install and unlock a Secret Service provider (GNOME Keyring or KWallet), or `pip install keyrings.alt` for a file-based keyring; then restart Cherry Desktop.</translation>
    </message>
    <message>
        <source>This chat has no model yet. Choose one in the Model list above.</source>
        <translation>This chat has no model yet. Choose one in the Model list above.</translation>
    </message>
    <message>
        <source>%1 is turned off. Turn it on in Providers, or choose another model.</source>
        <translation>%1 is turned off. Turn it on in Providers, or choose another model.</translation>
    </message>
    <message>
        <source>%1 needs an API key. Add it in Providers, then send again.</source>
        <translation>%1 needs an API key. Add it in Providers, then send again.</translation>
    </message>
    <message>
        <source>%1 needs an API key, but no key can be stored on this system.</source>
        <translation>%1 needs an API key, but no key can be stored on this system.</translation>
    </message>
    <message>
        <source>The model of this chat is no longer available. Choose another one.</source>
        <translation>The model of this chat is no longer available. Choose another one.</translation>
    </message>
    <message>
        <source>A model this chat also asked is no longer available and is not asked any more. Choose others with “Compare with…”.</source>
        <translation>A model this chat also asked is no longer available and is not asked any more. Choose others with “Compare with…”.</translation>
    </message>
    <message>
        <source>The agent's new settings could not be applied to the running session, so it was paused. Queued messages wait until you resume them.</source>
        <translation>The agent's new settings could not be applied to the running session, so it was paused. Queued messages wait until you resume them.</translation>
    </message>
    <message>
        <source>The next queued message could not be started. It stays queued; resume it when ready.</source>
        <translation>The next queued message could not be started. It stays queued; resume it when ready.</translation>
    </message>
    <message>
        <source>Queued messages are on hold: this session cannot run (%1).</source>
        <translation>Queued messages are on hold: this session cannot run (%1).</translation>
    </message>
    <message>
        <source>%1 is not asked: %2 has no API key or is turned off. Add the key in Providers, or uncheck the model in “Compare with…”; the other models answer.</source>
        <translation>%1 is not asked: %2 has no API key or is turned off. Add the key in Providers, or uncheck the model in “Compare with…”; the other models answer.</translation>
    </message>
</context>
<context>
    <name>MessageRow</name>
    <message>
        <source>You (steer)</source>
        <translation>You (steer)</translation>
    </message>
    <message>
        <source>You</source>
        <translation>You</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Assistant</translation>
    </message>
    <message>
        <source>thinking…</source>
        <translation>thinking…</translation>
    </message>
    <message>
        <source>streaming…</source>
        <translation>streaming…</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>stopped</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>failed</translation>
    </message>
    <message>
        <source>cut short</source>
        <translation>cut short</translation>
    </message>
    <message>
        <source>The agent process ended before finishing; this answer is incomplete.</source>
        <translation>The agent process ended before finishing; this answer is incomplete.</translation>
    </message>
    <message>
        <source>This answer is incomplete.</source>
        <translation>This answer is incomplete.</translation>
    </message>
    <message>
        <source>The agent could not resume the earlier conversation and started a new one: it does not remember the messages above.</source>
        <translation>The agent could not resume the earlier conversation and started a new one: it does not remember the messages above.</translation>
    </message>
    <message>
        <source>Part of this message could not be read.</source>
        <translation>Part of this message could not be read.</translation>
    </message>
    <message>
        <source>Forked from another session before one of its messages: these messages were copied, and the agent gets them as context with your next message.</source>
        <translation>Forked from another session before one of its messages: these messages were copied, and the agent gets them as context with your next message.</translation>
    </message>
</context>
<context>
    <name>MessageView</name>
    <message>
        <source>No messages yet. Say hello!</source>
        <translation>No messages yet. Say hello!</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>Regenerate</translation>
    </message>
    <message>
        <source>↓ Jump to latest</source>
        <translation>↓ Jump to latest</translation>
    </message>
    <message>
        <source>Scroll to the newest message (Ctrl+End)</source>
        <translation>Scroll to the newest message (Ctrl+End)</translation>
    </message>
</context>
<context>
    <name>ProvidersDialog</name>
    <message>
        <source>Providers</source>
        <translation>Providers</translation>
    </message>
</context>
<context>
    <name>ProvidersPanel</name>
    <message>
        <source>Add</source>
        <translation>Add</translation>
    </message>
    <message>
        <source>Custom (OpenAI-compatible)</source>
        <translation>Custom (OpenAI-compatible)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Delete</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>Base URL</translation>
    </message>
    <message>
        <source>Enabled (its models can be picked)</source>
        <translation>Enabled (its models can be picked)</translation>
    </message>
    <message>
        <source>Also serves the Anthropic Messages API (usable by Claude Code)</source>
        <translation>Also serves the Anthropic Messages API (usable by Claude Code)</translation>
    </message>
    <message>
        <source>Save key</source>
        <translation>Save key</translation>
    </message>
    <message>
        <source>Remove key</source>
        <translation>Remove key</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API key</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>Models</translation>
    </message>
    <message>
        <source>Model id, e.g. gpt-4o</source>
        <translation>Model id, e.g. gpt-4o</translation>
    </message>
    <message>
        <source>Add model</source>
        <translation>Add model</translation>
    </message>
    <message>
        <source>Remove model</source>
        <translation>Remove model</translation>
    </message>
    <message>
        <source>OpenAI-compatible</source>
        <translation>OpenAI-compatible</translation>
    </message>
    <message>
        <source>%1 (off)</source>
        <translation>%1 (off)</translation>
    </message>
    <message>
        <source>New provider</source>
        <translation>New provider</translation>
    </message>
    <message>
        <source>Delete provider</source>
        <translation>Delete provider</translation>
    </message>
    <message>
        <source>Delete %1 with its models and API key?</source>
        <translation>Delete %1 with its models and API key?</translation>
    </message>
    <message>
        <source>Keys cannot be stored until a keyring is available (see above).</source>
        <translation>Keys cannot be stored until a keyring is available (see above).</translation>
    </message>
    <message>
        <source>A key is stored in the system keyring.</source>
        <translation>A key is stored in the system keyring.</translation>
    </message>
    <message>
        <source>No key needed for a server on this computer.</source>
        <translation>No key needed for a server on this computer.</translation>
    </message>
    <message>
        <source>No key stored. Chats need one; Claude Code agents use your own Claude Code login.</source>
        <translation>No key stored. Chats need one; Claude Code agents use your own Claude Code login.</translation>
    </message>
    <message>
        <source>No key stored.</source>
        <translation>No key stored.</translation>
    </message>
    <message>
        <source>Replace the stored key</source>
        <translation>Replace the stored key</translation>
    </message>
    <message>
        <source>Paste the API key</source>
        <translation>Paste the API key</translation>
    </message>
    <message>
        <source>Prices…</source>
        <translation>Prices…</translation>
    </message>
</context>
<context>
    <name>QueueDock</name>
    <message>
        <source>Resume queue</source>
        <translation>Resume queue</translation>
    </message>
    <message>
        <source>The queue is paused after a stop or an error.</source>
        <translation>The queue is paused after a stop or an error.</translation>
    </message>
    <message numerus="yes">
        <source>Queued for the next turn (%n)</source>
        <translation>
            <numerusform>Queued for the next turn (%n)</numerusform>
            <numerusform>Queued for the next turn (%n)</numerusform>
        </translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>Move up</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>Move down</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Edit</translation>
    </message>
    <message>
        <source>Edit this message</source>
        <translation>Edit this message</translation>
    </message>
    <message>
        <source>Steer now</source>
        <translation>Steer now</translation>
    </message>
    <message>
        <source>Inject into the running turn</source>
        <translation>Inject into the running turn</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Remove</translation>
    </message>
    <message>
        <source>Edit queued message</source>
        <translation>Edit queued message</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Message</translation>
    </message>
</context>
<context>
    <name>ReasoningBlock</name>
    <message>
        <source>Reasoning</source>
        <translation>Reasoning</translation>
    </message>
</context>
<context>
    <name>SessionList</name>
    <message>
        <source>Agents</source>
        <translation>Agents</translation>
    </message>
    <message>
        <source>Untitled agent</source>
        <translation>Untitled agent</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>New session</translation>
    </message>
    <message>
        <source>Chats</source>
        <translation>Chats</translation>
    </message>
    <message>
        <source>New chat</source>
        <translation>New chat</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Open</translation>
    </message>
    <message>
        <source>Open in new window</source>
        <translation>Open in new window</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>Rename…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Delete</translation>
    </message>
    <message>
        <source>Edit agent…</source>
        <translation>Edit agent…</translation>
    </message>
    <message>
        <source>New agent…</source>
        <translation>New agent…</translation>
    </message>
    <message>
        <source>New session in its own worktree</source>
        <translation>New session in its own worktree</translation>
    </message>
    <message>
        <source>Delete agent…</source>
        <translation>Delete agent…</translation>
    </message>
    <message>
        <source>Waiting for your approval inside: %1</source>
        <translation>Waiting for your approval inside: %1</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>Settings</translation>
    </message>
    <message>
        <source>Follow system</source>
        <translation>Follow system</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Language</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Light</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Dark</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>Theme</translation>
    </message>
    <message>
        <source>Keep replying when all windows are closed</source>
        <translation>Keep replying when all windows are closed</translation>
    </message>
    <message>
        <source>Stop replies nobody is watching</source>
        <translation>Stop replies nobody is watching</translation>
    </message>
    <message>
        <source>Background</source>
        <translation>Background</translation>
    </message>
    <message>
        <source>General</source>
        <translation>General</translation>
    </message>
    <message>
        <source>Providers</source>
        <translation>Providers</translation>
    </message>
    <message>
        <source>API gateway</source>
        <translation>API gateway</translation>
    </message>
    <message>
        <source>Stop replying when all windows are closed</source>
        <translation>Stop replying when all windows are closed</translation>
    </message>
    <message>
        <source>Backups</source>
        <translation>Backups</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP servers</translation>
    </message>
    <message>
        <source>Skills</source>
        <translation>Skills</translation>
    </message>
    <message>
        <source>Stop after %1 minutes, keeping the reply so far</source>
        <translation>Stop after %1 minutes, keeping the reply so far</translation>
    </message>
    <message>
        <source>Stop after an hour, keeping the reply so far</source>
        <translation>Stop after an hour, keeping the reply so far</translation>
    </message>
    <message>
        <source>Stop after %1 hours, keeping the reply so far</source>
        <translation>Stop after %1 hours, keeping the reply so far</translation>
    </message>
    <message>
        <source>Stop after %1 seconds, keeping the reply so far</source>
        <translation>Stop after %1 seconds, keeping the reply so far</translation>
    </message>
    <message>
        <source>Wait until I answer</source>
        <translation>Wait until I answer</translation>
    </message>
    <message>
        <source>Approval with no window open</source>
        <translation>Approval with no window open</translation>
    </message>
    <message>
        <source>Notify me when a reply is ready while I look elsewhere</source>
        <translation>Notify me when a reply is ready while I look elsewhere</translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation>Notifications</translation>
    </message>
</context>
<context>
    <name>Splash</name>
    <message>
        <source>Cherry Desktop</source>
        <translation>Cherry Desktop</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Starting…</translation>
    </message>
</context>
<context>
    <name>StatusBadge</name>
    <message>
        <source>Replying…</source>
        <translation>Replying…</translation>
    </message>
    <message>
        <source>Approval</source>
        <translation>Approval</translation>
    </message>
    <message>
        <source>Waiting for your approval</source>
        <translation>Waiting for your approval</translation>
    </message>
    <message>
        <source>The last reply failed</source>
        <translation>The last reply failed</translation>
    </message>
    <message>
        <source>New reply</source>
        <translation>New reply</translation>
    </message>
</context>
<context>
    <name>ToolCard</name>
    <message>
        <source>preparing</source>
        <translation>preparing</translation>
    </message>
    <message>
        <source>running</source>
        <translation>running</translation>
    </message>
    <message>
        <source>waiting for approval</source>
        <translation>waiting for approval</translation>
    </message>
    <message>
        <source>approved</source>
        <translation>approved</translation>
    </message>
    <message>
        <source>done</source>
        <translation>done</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>failed</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>denied</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>Error: %1</translation>
    </message>
    <message>
        <source>Denied by the user</source>
        <translation>Denied by the user</translation>
    </message>
    <message>
        <source>not run</source>
        <translation>not run</translation>
    </message>
    <message>
        <source>Not run: the turn ended before it was answered</source>
        <translation>Not run: the turn ended before it was answered</translation>
    </message>
</context>
<context>
    <name>UiController</name>
    <message>
        <source>Open window</source>
        <translation>Open window</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Quit</translation>
    </message>
    <message>
        <source>Cherry Desktop</source>
        <translation>Cherry Desktop</translation>
    </message>
    <message>
        <source>The reply is ready.</source>
        <translation>The reply is ready.</translation>
    </message>
    <message>
        <source>Hi! What can you do in this workspace?</source>
        <translation>Hi! What can you do in this workspace?</translation>
    </message>
    <message>
        <source>The API gateway could not start. See Settings, API gateway.</source>
        <translation>The API gateway could not start. See Settings, API gateway.</translation>
    </message>
    <message>
        <source>The API gateway is on. Send your message again.</source>
        <translation>The API gateway is on. Send your message again.</translation>
    </message>
</context>
<context>
    <name>UsageFooter</name>
    <message>
        <source>%1 in · %2 out tokens</source>
        <translation>%1 in · %2 out tokens</translation>
    </message>
    <message>
        <source>first token %1 s</source>
        <translation>first token %1 s</translation>
    </message>
    <message>
        <source>%1 s total</source>
        <translation>%1 s total</translation>
    </message>
    <message>
        <source>%1 cache reads</source>
        <translation>%1 cache reads</translation>
    </message>
</context>
<context>
    <name>StorageFaultText</name>
    <message>
        <source>Cherry Desktop cannot use its data</source>
        <translation>Cherry Desktop cannot use its data</translation>
    </message>
    <message>
        <source>the data folder</source>
        <translation>the data folder</translation>
    </message>
    <message>
        <source>%1 cannot be written (a read-only folder or disk, or missing permissions). Make it writable, then start again.</source>
        <translation>%1 cannot be written (a read-only folder or disk, or missing permissions). Make it writable, then start again.</translation>
    </message>
    <message>
        <source>The disk holding %1 is full. Free some space, then start again.</source>
        <translation>The disk holding %1 is full. Free some space, then start again.</translation>
    </message>
    <message>
        <source>The database %1 is damaged. It was left as it is: restore it from a backup, or move it away to start with an empty one.</source>
        <translation>The database %1 is damaged. It was left as it is: restore it from a backup, or move it away to start with an empty one.</translation>
    </message>
    <message>
        <source>%1 is not a Cherry Desktop database (it is truncated or another kind of file). It was left as it is: move it away or restore it from a backup.</source>
        <translation>%1 is not a Cherry Desktop database (it is truncated or another kind of file). It was left as it is: move it away or restore it from a backup.</translation>
    </message>
    <message>
        <source>The database %1 was written by a newer Cherry Desktop. Update the app to open it; it was left as it is.</source>
        <translation>The database %1 was written by a newer Cherry Desktop. Update the app to open it; it was left as it is.</translation>
    </message>
    <message>
        <source>%1 cannot be opened. Check that it exists and that you may read and write it.</source>
        <translation>%1 cannot be opened. Check that it exists and that you may read and write it.</translation>
    </message>
</context>
<context>
    <name>CodeBlock</name>
    <message>
        <source>code</source>
        <translation>code</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copy</translation>
    </message>
    <message>
        <source>Copy the code</source>
        <translation>Copy the code</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Copied</translation>
    </message>
</context>
<context>
    <name>FoldingText</name>
    <message>
        <source>Show all %1 lines</source>
        <translation>Show all %1 lines</translation>
    </message>
    <message>
        <source>Show less</source>
        <translation>Show less</translation>
    </message>
</context>
<context>
    <name>MessageActions</name>
    <message>
        <source>Copy</source>
        <translation>Copy</translation>
    </message>
    <message>
        <source>Copy as Markdown (%1)</source>
        <translation>Copy as Markdown (%1)</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Edit</translation>
    </message>
    <message>
        <source>Edit and send again (%1 in an empty message box)</source>
        <translation>Edit and send again (%1 in an empty message box)</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>Regenerate</translation>
    </message>
    <message>
        <source>Another answer (%1)</source>
        <translation>Another answer (%1)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Delete</translation>
    </message>
    <message>
        <source>Delete this message (you can undo it)</source>
        <translation>Delete this message (you can undo it)</translation>
    </message>
    <message>
        <source>Copy as Markdown</source>
        <translation>Copy as Markdown</translation>
    </message>
    <message>
        <source>Edit and resend</source>
        <translation>Edit and resend</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>Changes</translation>
    </message>
    <message>
        <source>Restore files</source>
        <translation>Restore files</translation>
    </message>
    <message>
        <source>Restore files to before this message</source>
        <translation>Restore files to before this message</translation>
    </message>
    <message>
        <source>Restore files to before this message (shows what changes first)</source>
        <translation>Restore files to before this message (shows what changes first)</translation>
    </message>
    <message>
        <source>The files this turn added, modified or deleted</source>
        <translation>The files this turn added, modified or deleted</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Copied</translation>
    </message>
    <message>
        <source>Select all</source>
        <translation>Select all</translation>
    </message>
</context>
<context>
    <name>UndoBar</name>
    <message>
        <source>Message deleted</source>
        <translation>Message deleted</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Undo</translation>
    </message>
</context>
<context>
    <name>Export</name>
    <message>
        <source>Tool</source>
        <translation>Tool</translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation>Conversation</translation>
    </message>
    <message>
        <source>You</source>
        <translation>You</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>Assistant</translation>
    </message>
    <message>
        <source>steer</source>
        <translation>steer</translation>
    </message>
    <message>
        <source>Export to Markdown</source>
        <translation>Export to Markdown</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>Could not export: %1</source>
        <translation>Could not export: %1</translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation>Exported to %1</translation>
    </message>
</context>
<context>
    <name>SearchPanel</name>
    <message>
        <source>Search chats and sessions (Ctrl+K)</source>
        <translation>Search chats and sessions (Ctrl+K)</translation>
    </message>
    <message>
        <source>No results</source>
        <translation>No results</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>Untitled</translation>
    </message>
</context>
<context>
    <name>SessionHeader</name>
    <message>
        <source>Installing %1 %2 for its first use (about 15 s)…</source>
        <translation>Installing %1 %2 for its first use (about 15 s)…</translation>
    </message>
    <message>
        <source>Still always allowed: %1</source>
        <translation>Still always allowed: %1</translation>
    </message>
    <message>
        <source>Permission mode of this agent, applied to the running session</source>
        <translation>Permission mode of this agent, applied to the running session</translation>
    </message>
    <message>
        <source>Agent: %1</source>
        <translation>Agent: %1</translation>
    </message>
    <message>
        <source>Untitled agent</source>
        <translation>Untitled agent</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation>Model: %1</translation>
    </message>
    <message>
        <source>the agent's default</source>
        <translation>the agent's default</translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation>Open %1</translation>
    </message>
    <message>
        <source>Context %1%</source>
        <translation>Context %1%</translation>
    </message>
    <message>
        <source>%1 of %2 tokens of context used</source>
        <translation>%1 of %2 tokens of context used</translation>
    </message>
    <message>
        <source>Now: %1</source>
        <translation>Now: %1</translation>
    </message>
    <message>
        <source>Applies from the next turn</source>
        <translation>Applies from the next turn</translation>
    </message>
    <message>
        <source>The running session refused the change; it applies from the next turn</source>
        <translation>The running session refused the change; it applies from the next turn</translation>
    </message>
    <message>
        <source>Todos %1/%2</source>
        <translation>Todos %1/%2</translation>
    </message>
    <message>
        <source>Changes: %n file(s)</source>
        <translation>Changes: %n file(s)</translation>
    </message>
    <message>
        <source>Files changed in this session's folder since its first turn</source>
        <translation>Files changed in this session's folder since its first turn</translation>
    </message>
    <message>
        <source>Put back the files as they were before the last restore</source>
        <translation>Put back the files as they were before the last restore</translation>
    </message>
    <message>
        <source>Undo restore</source>
        <translation>Undo restore</translation>
    </message>
    <message>
        <source>Branch: %1</source>
        <translation>Branch: %1</translation>
    </message>
    <message>
        <source>This session works in its own git worktree. Merge back with: %1</source>
        <translation>This session works in its own git worktree. Merge back with: %1</translation>
    </message>
    <message>
        <source>No checkpoints: %1</source>
        <translation>No checkpoints: %1</translation>
    </message>
</context>
<context>
    <name>ModelPricingDialog</name>
    <message>
        <source>Cache reads</source>
        <translation>Cache reads</translation>
    </message>
    <message>
        <source>Cache writes</source>
        <translation>Cache writes</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>Input</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>Output</translation>
    </message>
    <message>
        <source>Prices of %1</source>
        <translation>Prices of %1</translation>
    </message>
    <message>
        <source>USD per million tokens</source>
        <translation>USD per million tokens</translation>
    </message>
</context>
<context>
    <name>UsageSummary</name>
    <message>
        <source>%1 cache reads</source>
        <translation>%1 cache reads</translation>
    </message>
    <message>
        <source>Total: %1 in · %2 out tokens</source>
        <translation>Total: %1 in · %2 out tokens</translation>
    </message>
    <message>
        <source>no prices for some models</source>
        <translation>no prices for some models</translation>
    </message>
    <message>
        <source>no price set for its model</source>
        <translation>no price set for its model</translation>
    </message>
    <message>
        <source>Prices are set per model: Providers ▸ Prices…</source>
        <translation>Prices are set per model: Providers ▸ Prices…</translation>
    </message>
</context>
<context>
    <name>CompactionDivider</name>
    <message>
        <source>— Compacting the context failed: %1 —</source>
        <translation>— Compacting the context failed: %1 —</translation>
    </message>
    <message>
        <source>— Compacting the conversation's context… —</source>
        <translation>— Compacting the conversation's context… —</translation>
    </message>
    <message>
        <source>— Earlier messages were compacted into a summary to free context —</source>
        <translation>— Earlier messages were compacted into a summary to free context —</translation>
    </message>
    <message>
        <source>— The context was full: %1 tokens of earlier messages were compacted into a summary —</source>
        <translation>— The context was full: %1 tokens of earlier messages were compacted into a summary —</translation>
    </message>
    <message>
        <source>— As asked, %1 tokens of earlier messages were compacted into a summary —</source>
        <translation>— As asked, %1 tokens of earlier messages were compacted into a summary —</translation>
    </message>
    <message>
        <source>— %1 tokens of earlier messages were compacted into a summary to free context —</source>
        <translation>— %1 tokens of earlier messages were compacted into a summary to free context —</translation>
    </message>
</context>
<context>
    <name>PlanCard</name>
    <message>
        <source>Plan</source>
        <translation>Plan</translation>
    </message>
</context>
<context>
    <name>TodoCard</name>
    <message>
        <source>Todo list · %1 of %2 done</source>
        <translation>Todo list · %1 of %2 done</translation>
    </message>
</context>
<context>
    <name>Translate</name>
    <message>
        <source>Choose a model for this chat (or a naming model in Settings) to translate.</source>
        <translation>Choose a model for this chat (or a naming model in Settings) to translate.</translation>
    </message>
    <message>
        <source>English</source>
        <translation>English</translation>
    </message>
    <message>
        <source>This message has no text to translate.</source>
        <translation>This message has no text to translate.</translation>
    </message>
    <message>
        <source>This message is already being translated.</source>
        <translation>This message is already being translated.</translation>
    </message>
    <message>
        <source>Translate to</source>
        <translation>Translate to</translation>
    </message>
</context>
<context>
    <name>TranslationBlock</name>
    <message>
        <source>Translating to %1…</source>
        <translation>Translating to %1…</translation>
    </message>
    <message>
        <source>Translation (%1)</source>
        <translation>Translation (%1)</translation>
    </message>
    <message>
        <source>Translation to %1 failed</source>
        <translation>Translation to %1 failed</translation>
    </message>
    <message>
        <source>Translation to %1 stopped</source>
        <translation>Translation to %1 stopped</translation>
    </message>
</context>
<context>
    <name>AttachmentButton</name>
    <message>
        <source>%1 (missing)</source>
        <translation>%1 (missing)</translation>
    </message>
</context>
<context>
    <name>AttachmentTray</name>
    <message>
        <source>Attach files</source>
        <translation>Attach files</translation>
    </message>
    <message>
        <source>Images and text files (*.png *.jpg *.jpeg *.webp *.gif *.txt *.md *.json *.csv *.py *.log);;All files (*)</source>
        <translation>Images and text files (*.png *.jpg *.jpeg *.webp *.gif *.txt *.md *.json *.csv *.py *.log);;All files (*)</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>Remove %1</translation>
    </message>
</context>
<context>
    <name>AttachmentViewer</name>
    <message>
        <source>Close</source>
        <translation>Close</translation>
    </message>
    <message>
        <source>Open with the system app</source>
        <translation>Open with the system app</translation>
    </message>
</context>
<context>
    <name>AttachmentWords</name>
    <message>
        <source>%1 cannot be attached: only PNG, JPEG, WebP and GIF images and text files can.</source>
        <translation>%1 cannot be attached: only PNG, JPEG, WebP and GIF images and text files can.</translation>
    </message>
    <message>
        <source>%1 could not be attached.</source>
        <translation>%1 could not be attached.</translation>
    </message>
    <message>
        <source>%1 could not be read.</source>
        <translation>%1 could not be read.</translation>
    </message>
    <message>
        <source>%1 could not be saved with the message (is the disk full?). Nothing was sent.</source>
        <translation>%1 could not be saved with the message (is the disk full?). Nothing was sent.</translation>
    </message>
    <message>
        <source>%1 is empty.</source>
        <translation>%1 is empty.</translation>
    </message>
    <message>
        <source>%1 is too large to attach (the limit is %2).</source>
        <translation>%1 is too large to attach (the limit is %2).</translation>
    </message>
    <message>
        <source>A message can carry at most %2 files; %1 was not added.</source>
        <translation>A message can carry at most %2 files; %1 was not added.</translation>
    </message>
    <message>
        <source>Files cannot be attached in this conversation.</source>
        <translation>Files cannot be attached in this conversation.</translation>
    </message>
    <message>
        <source>The attached file %1 is no longer available.</source>
        <translation>The attached file %1 is no longer available.</translation>
    </message>
    <message>
        <source>The file</source>
        <translation>The file</translation>
    </message>
</context>
<context>
    <name>AlwaysAllowedButton</name>
    <message>
        <source>Tools allowed without asking in this session; click to ask again</source>
        <translation>Tools allowed without asking in this session; click to ask again</translation>
    </message>
    <message>
        <source>Always allowed: %1</source>
        <translation>Always allowed: %1</translation>
    </message>
    <message numerus="yes">
        <source>Always allowed (%n)</source>
        <translation>
            <numerusform>Always allowed (%n)</numerusform>
            <numerusform>Always allowed (%n)</numerusform>
        </translation>
    </message>
    <message>
        <source>Ask again for %1</source>
        <translation>Ask again for %1</translation>
    </message>
    <message>
        <source>Ask again for every tool</source>
        <translation>Ask again for every tool</translation>
    </message>
</context>
<context>
    <name>AnswerColumn</name>
    <message>
        <source>✓ Continues from here</source>
        <translation>✓ Continues from here</translation>
    </message>
    <message>
        <source>The next message continues the conversation from this answer</source>
        <translation>The next message continues the conversation from this answer</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stop</translation>
    </message>
    <message>
        <source>Stop this model's answer</source>
        <translation>Stop this model's answer</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>Regenerate</translation>
    </message>
    <message>
        <source>Ask this model again (the other answers stay)</source>
        <translation>Ask this model again (the other answers stay)</translation>
    </message>
    <message>
        <source>Use this answer</source>
        <translation>Use this answer</translation>
    </message>
    <message>
        <source>Continue the conversation from this answer</source>
        <translation>Continue the conversation from this answer</translation>
    </message>
    <message>
        <source>Only a finished answer can be used</source>
        <translation>Only a finished answer can be used</translation>
    </message>
</context>
<context>
    <name>MultiModel</name>
    <message>
        <source>Only an answer that finished can be used. Regenerate it, or use another.</source>
        <translation>Only an answer that finished can be used. Regenerate it, or use another.</translation>
    </message>
    <message>
        <source>The conversation already went on from another answer of this turn.</source>
        <translation>The conversation already went on from another answer of this turn.</translation>
    </message>
    <message>
        <source>This answer cannot be used to continue the conversation.</source>
        <translation>This answer cannot be used to continue the conversation.</translation>
    </message>
</context>
<context>
    <name>ErrorWords</name>
    <message>
        <source>The model's service refused the API key. Check the key in Providers.</source>
        <translation>The model's service refused the API key. Check the key in Providers.</translation>
    </message>
    <message>
        <source>The model's service is limiting requests right now. Wait a moment, then try again.</source>
        <translation>The model's service is limiting requests right now. Wait a moment, then try again.</translation>
    </message>
    <message>
        <source>The model's service is overloaded. Try again in a little while.</source>
        <translation>The model's service is overloaded. Try again in a little while.</translation>
    </message>
    <message>
        <source>The model's service had a problem of its own. Try again later.</source>
        <translation>The model's service had a problem of its own. Try again later.</translation>
    </message>
    <message>
        <source>The model's service refused the request.</source>
        <translation>The model's service refused the request.</translation>
    </message>
    <message>
        <source>The model's service reported an error.</source>
        <translation>The model's service reported an error.</translation>
    </message>
    <message>
        <source>The model's service could not be reached. Check the network connection and the provider's address.</source>
        <translation>The model's service could not be reached. Check the network connection and the provider's address.</translation>
    </message>
    <message>
        <source>The model's service took too long to answer.</source>
        <translation>The model's service took too long to answer.</translation>
    </message>
    <message>
        <source>The connection ended before the reply was complete.</source>
        <translation>The connection ended before the reply was complete.</translation>
    </message>
    <message>
        <source>The model's service sent a reply that could not be read.</source>
        <translation>The model's service sent a reply that could not be read.</translation>
    </message>
    <message>
        <source>The model of this chat is no longer available. Choose another one.</source>
        <translation>The model of this chat is no longer available. Choose another one.</translation>
    </message>
    <message>
        <source>The provider of this model is turned off. Turn it on in Providers, or choose another model.</source>
        <translation>The provider of this model is turned off. Turn it on in Providers, or choose another model.</translation>
    </message>
    <message>
        <source>This chat has no model yet. Choose one in the Model list above.</source>
        <translation>This chat has no model yet. Choose one in the Model list above.</translation>
    </message>
    <message>
        <source>The agent's process ended during the turn.</source>
        <translation>The agent's process ended during the turn.</translation>
    </message>
    <message>
        <source>The agent reported an error.</source>
        <translation>The agent reported an error.</translation>
    </message>
    <message>
        <source>The agent could not be started.</source>
        <translation>The agent could not be started.</translation>
    </message>
    <message>
        <source>This session cannot run: its agent, workspace or model is not usable.</source>
        <translation>This session cannot run: its agent, workspace or model is not usable.</translation>
    </message>
    <message>
        <source>The session was closed during the turn.</source>
        <translation>The session was closed during the turn.</translation>
    </message>
    <message>
        <source>The queued message could not be started.</source>
        <translation>The queued message could not be started.</translation>
    </message>
    <message>
        <source>The reply could not be saved, so the turn did not start.</source>
        <translation>The reply could not be saved, so the turn did not start.</translation>
    </message>
    <message>
        <source>The reply stopped: the model sent nothing for too long.</source>
        <translation>The reply stopped: the model sent nothing for too long.</translation>
    </message>
    <message>
        <source>The reply could not be saved.</source>
        <translation>The reply could not be saved.</translation>
    </message>
    <message>
        <source>The reply was interrupted when the app stopped.</source>
        <translation>The reply was interrupted when the app stopped.</translation>
    </message>
    <message>
        <source>The turn could not continue.</source>
        <translation>The turn could not continue.</translation>
    </message>
    <message>
        <source>A backup or restore is in progress. Send again when it is done.</source>
        <translation>A backup or restore is in progress. Send again when it is done.</translation>
    </message>
    <message>
        <source>This conversation no longer exists.</source>
        <translation>This conversation no longer exists.</translation>
    </message>
    <message>
        <source>That message no longer exists.</source>
        <translation>That message no longer exists.</translation>
    </message>
    <message>
        <source>Only a reply of the model can be regenerated.</source>
        <translation>Only a reply of the model can be regenerated.</translation>
    </message>
    <message>
        <source>The message is empty.</source>
        <translation>The message is empty.</translation>
    </message>
    <message>
        <source>Wait until the current reply has finished.</source>
        <translation>Wait until the current reply has finished.</translation>
    </message>
    <message>
        <source>The same model was asked twice.</source>
        <translation>The same model was asked twice.</translation>
    </message>
    <message>
        <source>This chat cannot do that.</source>
        <translation>This chat cannot do that.</translation>
    </message>
    <message>
        <source>The reply failed.</source>
        <translation>The reply failed.</translation>
    </message>
    <message>
        <source>This agent reaches its model through Cherry's API gateway, which is off. Turn it on in Settings, API gateway, then send again.</source>
        <translation>This agent reaches its model through Cherry's API gateway, which is off. Turn it on in Settings, API gateway, then send again.</translation>
    </message>
    <message>
        <source>Turn on the API gateway</source>
        <translation>Turn on the API gateway</translation>
    </message>
    <message>
        <source>This agent was restored from a backup and stays off until you allow it: Settings, Backups, Allow restored agents.</source>
        <translation>This agent was restored from a backup and stays off until you allow it: Settings, Backups, Allow restored agents.</translation>
    </message>
    <message>
        <source>Two of this agent's MCP tools have the same name, so none of them can be told apart. Turn one off in Settings, MCP servers, or untick a server in the agent's dialog.</source>
        <translation>Two of this agent's MCP tools have the same name, so none of them can be told apart. Turn one off in Settings, MCP servers, or untick a server in the agent's dialog.</translation>
    </message>
    <message>
        <source>The disk is full, so this could not be saved. Free some space, then try again; what you typed stays in the message box.</source>
        <translation>The disk is full, so this could not be saved. Free some space, then try again; what you typed stays in the message box.</translation>
    </message>
    <message>
        <source>The data folder cannot be written (a read-only disk or missing permissions), so this could not be saved. Make it writable, then try again.</source>
        <translation>The data folder cannot be written (a read-only disk or missing permissions), so this could not be saved. Make it writable, then try again.</translation>
    </message>
</context>
<context>
    <name>GatewaySettingsPanel</name>
    <message>
        <source>Serves Cherry's models and agents as a local API (Anthropic Messages, OpenAI chat completions, agents and topics over SSE) on 127.0.0.1 only. Claude Code agents on models that are not Anthropic-compatible run through it.</source>
        <translation>Serves Cherry's models and agents as a local API (Anthropic Messages, OpenAI chat completions, agents and topics over SSE) on 127.0.0.1 only. Claude Code agents on models that are not Anthropic-compatible run through it.</translation>
    </message>
    <message>
        <source>Run the API gateway</source>
        <translation>Run the API gateway</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>Base URL</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Show</translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation>Regenerate</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API key</translation>
    </message>
    <message>
        <source>OpenAI SDK (Python)</source>
        <translation>OpenAI SDK (Python)</translation>
    </message>
    <message>
        <source>Example</source>
        <translation>Example</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copy</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>Hide</translation>
    </message>
    <message>
        <source>Running. Requests need the API key below.</source>
        <translation>Running. Requests need the API key below.</translation>
    </message>
    <message>
        <source>Off.</source>
        <translation>Off.</translation>
    </message>
    <message>
        <source>Port %1 on 127.0.0.1 is in use by another program: choose another port.</source>
        <translation>Port %1 on 127.0.0.1 is in use by another program: choose another port.</translation>
    </message>
    <message>
        <source>No keyring is available to keep the API key in: the gateway cannot run.</source>
        <translation>No keyring is available to keep the API key in: the gateway cannot run.</translation>
    </message>
</context>
<context>
    <name>FetchedModelsDialog</name>
    <message>
        <source>Add models</source>
        <translation>Add models</translation>
    </message>
    <message>
        <source>Add selected</source>
        <translation>Add selected</translation>
    </message>
    <message>
        <source>Filter</source>
        <translation>Filter</translation>
    </message>
</context>
<context>
    <name>ProviderCheckRow</name>
    <message>
        <source>Asking the provider for its models…</source>
        <translation>Asking the provider for its models…</translation>
    </message>
    <message>
        <source>Connected. Models the provider lists: %1.</source>
        <translation>Connected. Models the provider lists: %1.</translation>
    </message>
    <message>
        <source>Connected: %1 answered.</source>
        <translation>Connected: %1 answered.</translation>
    </message>
    <message>
        <source>Fetch models…</source>
        <translation>Fetch models…</translation>
    </message>
    <message>
        <source>Models added: %1.</source>
        <translation>Models added: %1.</translation>
    </message>
    <message>
        <source>Models the provider lists: %1.</source>
        <translation>Models the provider lists: %1.</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>Test connection</translation>
    </message>
    <message>
        <source>Testing the connection…</source>
        <translation>Testing the connection…</translation>
    </message>
    <message>
        <source>This provider does not list its models: add them by id below.</source>
        <translation>This provider does not list its models: add them by id below.</translation>
    </message>
</context>
<context>
    <name>BackupDialog</name>
    <message>
        <source>API keys are not in the backup: they stay in this computer's keyring. After restoring on another computer, enter them again.</source>
        <translation>API keys are not in the backup: they stay in this computer's keyring. After restoring on another computer, enter them again.</translation>
    </message>
    <message>
        <source>Another backup or restore is running.</source>
        <translation>Another backup or restore is running.</translation>
    </message>
    <message>
        <source>Back up</source>
        <translation>Back up</translation>
    </message>
    <message>
        <source>Back up to</source>
        <translation>Back up to</translation>
    </message>
    <message>
        <source>Backup written: %1 (%2).</source>
        <translation>Backup written: %1 (%2).</translation>
    </message>
    <message>
        <source>Cancelled. Nothing was written.</source>
        <translation>Cancelled. Nothing was written.</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>Cancelling…</translation>
    </message>
    <message>
        <source>Checking the backup…</source>
        <translation>Checking the backup…</translation>
    </message>
    <message>
        <source>Cherry Desktop backup (*.cherry-backup);;All files (*)</source>
        <translation>Cherry Desktop backup (*.cherry-backup);;All files (*)</translation>
    </message>
    <message>
        <source>Cherry Desktop is running on this data folder.</source>
        <translation>Cherry Desktop is running on this data folder.</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Close</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Done</translation>
    </message>
    <message>
        <source>Enter the API keys again for: %1</source>
        <translation>Enter the API keys again for: %1</translation>
    </message>
    <message>
        <source>Not done</source>
        <translation>Not done</translation>
    </message>
    <message>
        <source>Pausing new writes…</source>
        <translation>Pausing new writes…</translation>
    </message>
    <message>
        <source>Quit now</source>
        <translation>Quit now</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>Restore</translation>
    </message>
    <message>
        <source>Restore from</source>
        <translation>Restore from</translation>
    </message>
    <message>
        <source>Restore from a backup?</source>
        <translation>Restore from a backup?</translation>
    </message>
    <message>
        <source>Restore not done</source>
        <translation>Restore not done</translation>
    </message>
    <message>
        <source>Restored</source>
        <translation>Restored</translation>
    </message>
    <message>
        <source>Restoring %1 replaces all chats, agents and sessions with the backup's when Cherry Desktop starts again. The current data is kept aside until then.</source>
        <translation>Restoring %1 replaces all chats, agents and sessions with the backup's when Cherry Desktop starts again. The current data is kept aside until then.</translation>
    </message>
    <message>
        <source>Some work was still being saved and did not finish in time. Nothing was written; try again in a moment.</source>
        <translation>Some work was still being saved and did not finish in time. Nothing was written; try again in a moment.</translation>
    </message>
    <message>
        <source>Still running: %1</source>
        <translation>Still running: %1</translation>
    </message>
    <message>
        <source>Taking a snapshot of the database…</source>
        <translation>Taking a snapshot of the database…</translation>
    </message>
    <message>
        <source>The backup could not be put in place, so your previous data was kept.</source>
        <translation>The backup could not be put in place, so your previous data was kept.</translation>
    </message>
    <message>
        <source>The backup is verified and ready. Quit and start Cherry Desktop again to finish the restore; until then you keep working on the current data.</source>
        <translation>The backup is verified and ready. Quit and start Cherry Desktop again to finish the restore; until then you keep working on the current data.</translation>
    </message>
    <message>
        <source>The disk is full. Free some space or choose another folder.</source>
        <translation>The disk is full. Free some space or choose another folder.</translation>
    </message>
    <message>
        <source>The file or folder cannot be read.</source>
        <translation>The file or folder cannot be read.</translation>
    </message>
    <message>
        <source>Then enter the API keys again for: %1</source>
        <translation>Then enter the API keys again for: %1</translation>
    </message>
    <message>
        <source>This backup is damaged and cannot be restored.</source>
        <translation>This backup is damaged and cannot be restored.</translation>
    </message>
    <message>
        <source>This backup is incomplete: the file was cut short.</source>
        <translation>This backup is incomplete: the file was cut short.</translation>
    </message>
    <message>
        <source>This backup was made by a newer Cherry Desktop. Update the app to restore it.</source>
        <translation>This backup was made by a newer Cherry Desktop. Update the app to restore it.</translation>
    </message>
    <message>
        <source>This file is not a Cherry Desktop backup.</source>
        <translation>This file is not a Cherry Desktop backup.</translation>
    </message>
    <message>
        <source>This folder cannot be written. Choose another folder.</source>
        <translation>This folder cannot be written. Choose another folder.</translation>
    </message>
    <message>
        <source>Writing the backup…</source>
        <translation>Writing the backup…</translation>
    </message>
    <message>
        <source>Your data was restored from the backup. The replaced data is kept until the next start.</source>
        <translation>Your data was restored from the backup. The replaced data is kept until the next start.</translation>
    </message>
    <message>
        <source>The restored agents stay off until you allow them in Settings, Backups: %1</source>
        <translation>The restored agents stay off until you allow them in Settings, Backups: %1</translation>
    </message>
    <message>
        <source>Choose a place outside Cherry Desktop's own data: this one would overwrite it, or be backed up itself.</source>
        <translation>Choose a place outside Cherry Desktop's own data: this one would overwrite it, or be backed up itself.</translation>
    </message>
</context>
<context>
    <name>BackupSettingsPanel</name>
    <message>
        <source>A folder on another disk is best</source>
        <translation>A folder on another disk is best</translation>
    </message>
    <message>
        <source>API keys are not in backups: they stay in this computer's keyring.</source>
        <translation>API keys are not in backups: they stay in this computer's keyring.</translation>
    </message>
    <message>
        <source>Back up automatically once a day</source>
        <translation>Back up automatically once a day</translation>
    </message>
    <message>
        <source>Choose a folder for automatic backups.</source>
        <translation>Choose a folder for automatic backups.</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Choose…</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Folder</translation>
    </message>
    <message>
        <source>Folder for automatic backups</source>
        <translation>Folder for automatic backups</translation>
    </message>
    <message>
        <source>Keep the newest</source>
        <translation>Keep the newest</translation>
    </message>
    <message>
        <source>Last backup: %1</source>
        <translation>Last backup: %1</translation>
    </message>
    <message>
        <source>never</source>
        <translation>never</translation>
    </message>
    <message>
        <source>Agents restored from a backup run commands in your workspaces, so they stay off until you allow them: %1</source>
        <translation>Agents restored from a backup run commands in your workspaces, so they stay off until you allow them: %1</translation>
    </message>
    <message>
        <source>Allow restored agents</source>
        <translation>Allow restored agents</translation>
    </message>
    <message>
        <source>Allowed: %1 agent(s).</source>
        <translation>Allowed: %1 agent(s).</translation>
    </message>
</context>
<context>
    <name>ChangesDialog</name>
    <message>
        <source>%n file(s) changed</source>
        <translation>%n file(s) changed</translation>
    </message>
    <message>
        <source>(no textual difference)</source>
        <translation>(no textual difference)</translation>
    </message>
    <message>
        <source>No files changed.</source>
        <translation>No files changed.</translation>
    </message>
    <message>
        <source>Too large to checkpoint (not shown, never restored): %1</source>
        <translation>Too large to checkpoint (not shown, never restored): %1</translation>
    </message>
    <message>
        <source>the turn is still running: shown against the folder now</source>
        <translation>the turn is still running: shown against the folder now</translation>
    </message>
    <message>
        <source>only files inside the session's folder are tracked</source>
        <translation>only files inside the session's folder are tracked</translation>
    </message>
</context>
<context>
    <name>CheckpointActions</name>
    <message>
        <source>Changes in this session</source>
        <translation>Changes in this session</translation>
    </message>
    <message>
        <source>Changes of this turn</source>
        <translation>Changes of this turn</translation>
    </message>
    <message>
        <source>Restored %n file(s) to before the message. The conversation is unchanged.</source>
        <translation>Restored %n file(s) to before the message. The conversation is unchanged.</translation>
    </message>
    <message>
        <source>The files are back as they were before the restore.</source>
        <translation>The files are back as they were before the restore.</translation>
    </message>
    <message>
        <source>Forked session</source>
        <translation>Forked session</translation>
    </message>
    <message>
        <source>Restored %n file(s). The conversation goes on in a new session from before the message; its agent gets the earlier messages as context.</source>
        <translation>Restored %n file(s). The conversation goes on in a new session from before the message; its agent gets the earlier messages as context.</translation>
    </message>
</context>
<context>
    <name>CheckpointWords</name>
    <message>
        <source>Checkpoints need git, and no git was found on this computer.</source>
        <translation>Checkpoints need git, and no git was found on this computer.</translation>
    </message>
    <message>
        <source>Files changed after the list was shown. Nothing was restored; look at the new list.</source>
        <translation>Files changed after the list was shown. Nothing was restored; look at the new list.</translation>
    </message>
    <message>
        <source>Nothing was restored: a file that has no checkpoint is in the way (%1).</source>
        <translation>Nothing was restored: a file that has no checkpoint is in the way (%1).</translation>
    </message>
    <message>
        <source>Something went wrong: %1</source>
        <translation>Something went wrong: %1</translation>
    </message>
    <message>
        <source>The agent is working: stop it or wait for the turn to end, then restore.</source>
        <translation>The agent is working: stop it or wait for the turn to end, then restore.</translation>
    </message>
    <message>
        <source>The checkpoint of this message is no longer kept.</source>
        <translation>The checkpoint of this message is no longer kept.</translation>
    </message>
    <message>
        <source>The session's folder cannot be written to (read-only): %1</source>
        <translation>The session's folder cannot be written to (read-only): %1</translation>
    </message>
    <message>
        <source>The session's folder no longer exists: %1</source>
        <translation>The session's folder no longer exists: %1</translation>
    </message>
    <message>
        <source>This folder has too many files for checkpoints (%1).</source>
        <translation>This folder has too many files for checkpoints (%1).</translation>
    </message>
    <message>
        <source>This message has no checkpoint (it was sent before checkpoints, or its checkpoint was skipped).</source>
        <translation>This message has no checkpoint (it was sent before checkpoints, or its checkpoint was skipped).</translation>
    </message>
    <message>
        <source>added</source>
        <translation>added</translation>
    </message>
    <message>
        <source>binary</source>
        <translation>binary</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>deleted</translation>
    </message>
    <message>
        <source>git failed; nothing was changed: %1</source>
        <translation>git failed; nothing was changed: %1</translation>
    </message>
    <message>
        <source>git took too long; nothing was changed.</source>
        <translation>git took too long; nothing was changed.</translation>
    </message>
    <message>
        <source>modified</source>
        <translation>modified</translation>
    </message>
    <message>
        <source>A session gets its own worktree only in a git repository with at least one commit: %1</source>
        <translation>A session gets its own worktree only in a git repository with at least one commit: %1</translation>
    </message>
    <message>
        <source>git could not do it: %1</source>
        <translation>git could not do it: %1</translation>
    </message>
</context>
<context>
    <name>RewindDialog</name>
    <message>
        <source>%n file(s) will be put back as they were before this message:</source>
        <translation>%n file(s) will be put back as they were before this message:</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <source>Changed by you (not by the agent) since then: %1</source>
        <translation>Changed by you (not by the agent) since then: %1</translation>
    </message>
    <message>
        <source>Restore files</source>
        <translation>Restore files</translation>
    </message>
    <message>
        <source>Restore files to before this message</source>
        <translation>Restore files to before this message</translation>
    </message>
    <message>
        <source>The folder is already as it was before this message: nothing to restore.</source>
        <translation>The folder is already as it was before this message: nothing to restore.</translation>
    </message>
    <message>
        <source>The folder is checkpointed first: you can undo the restore. The conversation stays as it is.</source>
        <translation>The folder is checkpointed first: you can undo the restore. The conversation stays as it is.</translation>
    </message>
    <message>
        <source>Too large to keep a copy of, so the undo cannot bring them back: %1</source>
        <translation>Too large to keep a copy of, so the undo cannot bring them back: %1</translation>
    </message>
    <message>
        <source>you changed it since: your edit will be replaced</source>
        <translation>you changed it since: your edit will be replaced</translation>
    </message>
    <message>
        <source>Also start a new session holding the messages before this one</source>
        <translation>Also start a new session holding the messages before this one</translation>
    </message>
    <message>
        <source>Restore files and conversation</source>
        <translation>Restore files and conversation</translation>
    </message>
    <message>
        <source>The folder is checkpointed first: you can undo the restore. Restore files keeps the conversation as it is; Restore files and conversation also starts a new session from before this message.</source>
        <translation>The folder is checkpointed first: you can undo the restore. Restore files keeps the conversation as it is; Restore files and conversation also starts a new session from before this message.</translation>
    </message>
</context>
<context>
    <name>WorktreeActions</name>
    <message>
        <source>%n file(s) in it are not committed and would be lost.</source>
        <translation>%n file(s) in it are not committed and would be lost.</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Delete</translation>
    </message>
    <message>
        <source>Delete session</source>
        <translation>Delete session</translation>
    </message>
    <message>
        <source>Delete session and worktree</source>
        <translation>Delete session and worktree</translation>
    </message>
    <message>
        <source>Delete session, keep worktree</source>
        <translation>Delete session, keep worktree</translation>
    </message>
    <message>
        <source>Delete this conversation?</source>
        <translation>Delete this conversation?</translation>
    </message>
    <message>
        <source>Its branch has %n commit(s) no other branch has: the branch is kept.</source>
        <translation>Its branch has %n commit(s) no other branch has: the branch is kept.</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>New session</translation>
    </message>
    <message>
        <source>Nothing in it is lost by removing it.</source>
        <translation>Nothing in it is lost by removing it.</translation>
    </message>
    <message>
        <source>The worktree was removed; its branch %1 is kept (it has commits no other branch has).</source>
        <translation>The worktree was removed; its branch %1 is kept (it has commits no other branch has).</translation>
    </message>
    <message>
        <source>This session works in its own worktree: %1 (branch %2).</source>
        <translation>This session works in its own worktree: %1 (branch %2).</translation>
    </message>
</context>
<context>
    <name>ToolView</name>
    <message>
        <source>%1 (MCP server %2)</source>
        <translation>%1 (MCP server %2)</translation>
    </message>
</context>
<context>
    <name>McpSettingsPanel</name>
    <message>
        <source>Add</source>
        <translation>Add</translation>
    </message>
    <message>
        <source>Allow without asking</source>
        <translation>Allow without asking</translation>
    </message>
    <message>
        <source>Another server already has this name.</source>
        <translation>Another server already has this name.</translation>
    </message>
    <message>
        <source>Approval</source>
        <translation>Approval</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>Arguments</translation>
    </message>
    <message>
        <source>Ask (follows the permission mode)</source>
        <translation>Ask (follows the permission mode)</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Command</translation>
    </message>
    <message>
        <source>Command (stdio)</source>
        <translation>Command (stdio)</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Connecting…</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>Enabled</translation>
    </message>
    <message>
        <source>Enter the command that starts the server.</source>
        <translation>Enter the command that starts the server.</translation>
    </message>
    <message>
        <source>Enter the server's http:// or https:// URL.</source>
        <translation>Enter the server's http:// or https:// URL.</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Environment</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Failed</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Failed: %1</translation>
    </message>
    <message>
        <source>Give the server a name.</source>
        <translation>Give the server a name.</translation>
    </message>
    <message>
        <source>Headers</source>
        <translation>Headers</translation>
    </message>
    <message>
        <source>MCP servers are available once Cherry has started.</source>
        <translation>MCP servers are available once Cherry has started.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Never run</source>
        <translation>Never run</translation>
    </message>
    <message>
        <source>No system keyring is available to keep the values.</source>
        <translation>No system keyring is available to keep the values.</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Off</translation>
    </message>
    <message>
        <source>On</source>
        <translation>On</translation>
    </message>
    <message>
        <source>Ready: %1 tools</source>
        <translation>Ready: %1 tools</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Remove</translation>
    </message>
    <message>
        <source>SSE</source>
        <translation>SSE</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Save</translation>
    </message>
    <message>
        <source>Streamable HTTP</source>
        <translation>Streamable HTTP</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>Test connection</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>Testing…</translation>
    </message>
    <message>
        <source>The test connected: %1 tools</source>
        <translation>The test connected: %1 tools</translation>
    </message>
    <message>
        <source>The test failed: %1</source>
        <translation>The test failed: %1</translation>
    </message>
    <message>
        <source>This server cannot be saved: %1</source>
        <translation>This server cannot be saved: %1</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Tool</translation>
    </message>
    <message>
        <source>Tools ask</source>
        <translation>Tools ask</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Values are kept in the system keyring. A stored value is not shown: leave it empty to keep it.</source>
        <translation>Values are kept in the system keyring. A stored value is not shown: leave it empty to keep it.</translation>
    </message>
    <message>
        <source>Working folder</source>
        <translation>Working folder</translation>
    </message>
</context>
<context>
    <name>ArtifactsCard</name>
    <message>
        <source>Deliverables (%1)</source>
        <translation>Deliverables (%1)</translation>
    </message>
</context>
<context>
    <name>SkillsSettingsPanel</name>
    <message>
        <source>A skill with this name is already there.</source>
        <translation>A skill with this name is already there.</translation>
    </message>
    <message>
        <source>Choose a skill folder</source>
        <translation>Choose a skill folder</translation>
    </message>
    <message>
        <source>Choose a skill zip</source>
        <translation>Choose a skill zip</translation>
    </message>
    <message>
        <source>Import folder…</source>
        <translation>Import folder…</translation>
    </message>
    <message>
        <source>Import zip…</source>
        <translation>Import zip…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Remove</translation>
    </message>
    <message>
        <source>Skills an agent can use once you enable them in its dialog. A skill is a folder with a SKILL.md.</source>
        <translation>Skills an agent can use once you enable them in its dialog. A skill is a folder with a SKILL.md.</translation>
    </message>
    <message>
        <source>The skill cannot be imported: %1</source>
        <translation>The skill cannot be imported: %1</translation>
    </message>
    <message>
        <source>The skill's name may hold only letters, digits, '.', '_' and '-'.</source>
        <translation>The skill's name may hold only letters, digits, '.', '_' and '-'.</translation>
    </message>
    <message>
        <source>The zip holds a path outside its folder or a link: not imported.</source>
        <translation>The zip holds a path outside its folder or a link: not imported.</translation>
    </message>
    <message>
        <source>The zip is too large.</source>
        <translation>The zip is too large.</translation>
    </message>
    <message>
        <source>There is no SKILL.md in it.</source>
        <translation>There is no SKILL.md in it.</translation>
    </message>
    <message>
        <source>This is not a zip file.</source>
        <translation>This is not a zip file.</translation>
    </message>
    <message>
        <source>Zip files (*.zip)</source>
        <translation>Zip files (*.zip)</translation>
    </message>
</context>
<context>
    <name>VersionSwitcher</name>
    <message>
        <source>Previous version</source>
        <translation>Previous version</translation>
    </message>
    <message>
        <source>Next version</source>
        <translation>Next version</translation>
    </message>
    <message>
        <source>Version %1 of %2</source>
        <translation>Version %1 of %2</translation>
    </message>
</context>
<context>
    <name>StartGuide</name>
    <message>
        <source>This session talks to Cherry's offline demo agent: no account, no network.

Try a task that uses a tool, for example: “Write a short note about pelicans into my workspace”. The agent streams its answer slowly, then asks before it runs its Write tool: Allow or Deny.

While it is still writing, type another message and press Ctrl+Enter to steer it, or press Stop to end the turn.</source>
        <translation>This session talks to Cherry's offline demo agent: no account, no network.

Try a task that uses a tool, for example: “Write a short note about pelicans into my workspace”. The agent streams its answer slowly, then asks before it runs its Write tool: Allow or Deny.

While it is still writing, type another message and press Ctrl+Enter to steer it, or press Stop to end the turn.</translation>
    </message>
</context>
<context>
    <name>AgentActions</name>
    <message>
        <source>Untitled agent</source>
        <translation>Untitled agent</translation>
    </message>
    <message>
        <source>Delete agent</source>
        <translation>Delete agent</translation>
    </message>
    <message>
        <source>Delete the agent “%1”?</source>
        <translation>Delete the agent “%1”?</translation>
    </message>
    <message numerus="yes">
        <source>Its %n session(s) and their messages are deleted with it; this cannot be undone.</source>
        <translation>
            <numerusform>Its %n session and its messages are deleted with it; this cannot be undone.</numerusform>
            <numerusform>Its %n sessions and their messages are deleted with it; this cannot be undone.</numerusform>
        </translation>
    </message>
    <message>
        <source>It has no sessions.</source>
        <translation>It has no sessions.</translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) of it are running now: they are stopped first.</source>
        <translation>
            <numerusform>%n of its sessions is running now: it is stopped first.</numerusform>
            <numerusform>%n of its sessions are running now: they are stopped first.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) work in their own git worktree: the worktree folders stay on disk.</source>
        <translation>
            <numerusform>%n session works in its own git worktree: the worktree folder stays on disk.</numerusform>
            <numerusform>%n sessions work in their own git worktree: the worktree folders stay on disk.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RowTime</name>
    <message>
        <source>Yesterday %1</source>
        <translation>Yesterday %1</translation>
    </message>
</context>
<context>
    <name>ComposerCompletion</name>
    <message>
        <source>Listing files…</source>
        <translation>Listing files…</translation>
    </message>
</context>
<context>
    <name>NewTopicBar</name>
    <message>
        <source>+ New chat</source>
        <translation>+ New chat</translation>
    </message>
    <message>
        <source>+ New session</source>
        <translation>+ New session</translation>
    </message>
    <message>
        <source>A new chat with a model (Ctrl+N)</source>
        <translation>A new chat with a model (Ctrl+N)</translation>
    </message>
    <message>
        <source>A new session of the agent you are looking at</source>
        <translation>A new session of the agent you are looking at</translation>
    </message>
</context>
<context>
    <name>Attention</name>
    <message>
        <source>Waiting for your approval</source>
        <translation>Waiting for your approval</translation>
    </message>
    <message>
        <source>Replying…</source>
        <translation>Replying…</translation>
    </message>
    <message>
        <source>Reply ready</source>
        <translation>Reply ready</translation>
    </message>
    <message>
        <source>Untitled conversation</source>
        <translation>Untitled conversation</translation>
    </message>
    <message>
        <source>Cherry Desktop</source>
        <translation>Cherry Desktop</translation>
    </message>
    <message numerus="yes">
        <source>(%n) Waiting for you — Cherry Desktop</source>
        <translation>
            <numerusform>(%n) Waiting for you — Cherry Desktop</numerusform>
            <numerusform>(%n) Waiting for you — Cherry Desktop</numerusform>
        </translation>
    </message>
    <message>
        <source>Waiting for your approval to go on.</source>
        <translation>Waiting for your approval to go on.</translation>
    </message>
    <message>
        <source>The reply is ready.</source>
        <translation>The reply is ready.</translation>
    </message>
</context>
<context>
    <name>TrayMenu</name>
    <message>
        <source>Open “%1” — %2</source>
        <translation>Open “%1” — %2</translation>
    </message>
    <message>
        <source>No conversation is running</source>
        <translation>No conversation is running</translation>
    </message>
    <message>
        <source>Open window</source>
        <translation>Open window</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Quit</translation>
    </message>
</context>
<context>
    <name>CloseQuestion</name>
    <message>
        <source>an hour</source>
        <translation>an hour</translation>
    </message>
    <message>
        <source>%1 hours</source>
        <translation>%1 hours</translation>
    </message>
    <message>
        <source>a minute</source>
        <translation>a minute</translation>
    </message>
    <message>
        <source>%1 minutes</source>
        <translation>%1 minutes</translation>
    </message>
    <message>
        <source>%1 seconds</source>
        <translation>%1 seconds</translation>
    </message>
    <message>
        <source>Close the last window?</source>
        <translation>Close the last window?</translation>
    </message>
    <message>
        <source>Waiting for your approval:</source>
        <translation>Waiting for your approval:</translation>
    </message>
    <message>
        <source>In the background they wait for you to open a window again; after %1 they stop, keeping what they wrote so far.</source>
        <translation>In the background they wait for you to open a window again; after %1 they stop, keeping what they wrote so far.</translation>
    </message>
    <message>
        <source>In the background they wait until you open a window again.</source>
        <translation>In the background they wait until you open a window again.</translation>
    </message>
    <message>
        <source>Keep running in the background</source>
        <translation>Keep running in the background</translation>
    </message>
    <message>
        <source>Stop them and quit</source>
        <translation>Stop them and quit</translation>
    </message>
</context>
</TS>
