"""The ACP runtime: any agent that speaks the Agent Client Protocol (JSON-RPC over stdio)."""
