"""Reinforcement learning: the Gymnasium environments over the analysis layer's batch."""
