"""AI: the stream broker, the AI service, agent-session runtime host and runtime drivers."""
