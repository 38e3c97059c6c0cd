"""Persistence: the fsynced, chained event journal, checkpoints between hands and the published high-water
mark (it stores and checks records; reading them back as hands is ``controller/history/``)."""
