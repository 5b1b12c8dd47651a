"""Search over the engines: Information Set MCTS and baseline bots."""
