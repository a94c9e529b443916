"""Forum Mafia rules, pure Python: no Django, DRF or Celery import, no I/O, no clock, randomness only from the
injected ``random.Random``.

``state`` (the schema of ``state["fm"]`` and the helpers that read it) is the bottom; on it ``roles``, ``opening``
(the deal, deck building and the opening), ``orders`` (intake, legality, price), ``abilities``, ``veche``,
``rooms``, ``room_comments``, ``thread_rules``, ``victory`` (FM-10), ``resolution`` (the layers of FM-6),
``master_edit`` and ``table``; ``game`` is the entry points the module's hooks call (options, an order in any
phase, the resolution of any phase, what a viewer sees).
"""
