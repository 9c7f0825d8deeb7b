"""Hand evaluation: bid ladders by simulation (`hand`), double-dummy batches (`dd`), the play studies
(`study`), hand features and the hand-point formula."""

#: The checked tier's default: every 50th sample solved exactly (:mod:`.checked`). An exact row costs ~20x a
#: threshold row (1-9 s against 0.1-0.3 s of CPU on 12-trick deals) and only sharpens E[score] and the Tapp value.
EXACT_EVERY = 50
