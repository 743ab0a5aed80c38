"""Answers about play: the solver, the fair (non-peeking) policies, the batch of games
stepped together, the simulator (built-in and callable policies), surveys and the atlas.
Above the model and the inputs."""
