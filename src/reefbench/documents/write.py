"""Writing text documents (``.odt``, through odfpy) and presentations (``.pptx``, through
python-pptx) for a task's setup: the document a user already has. (A presentation odfpy
writes loses its placeholders in LibreOffice, its titles becoming plain text boxes; a
PowerPoint deck keeps them.)

The files record their library as their generator, so only a save by LibreOffice makes them pass
:func:`~reefbench.envs.desktop.office_evaluators.saved_by_libreoffice`. The content is
plain on purpose (paragraphs in the body text style, slides of a title and bullets): what
the task asks the agent to add (headings, fields, notes) is not there yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

BODY_STYLE = "Text_20_body"


def write_text_document(path: Path, paragraphs: Sequence[str], title: str = "") -> None:
    """An ``.odt`` with an optional title paragraph ("Title" style) and then one body-text
    paragraph per entry of ``paragraphs`` (in the "Body Text" style: no headings)."""
    from odf.opendocument import OpenDocumentText
    from odf.style import ParagraphProperties, Style, TextProperties
    from odf.text import P

    document = OpenDocumentText()
    body = Style(name=BODY_STYLE, displayname="Text Body", family="paragraph")
    body.addElement(ParagraphProperties(marginbottom="0.247cm"))
    heading = Style(name="Title", displayname="Title", family="paragraph")
    heading.addElement(TextProperties(fontsize="20pt", fontweight="bold"))
    document.styles.addElement(body)
    document.styles.addElement(heading)
    if title:
        document.text.addElement(P(stylename=heading, text=title))
    for text in paragraphs:
        document.text.addElement(P(stylename=body, text=text))
    path.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(path))


# A tracked change inside a reviewed paragraph: "{+Author|inserted text+}" or
# "{-Author|deleted text-}".
CHANGE_MARK = r"\{([+-])([^|{}]+)\|([^{}]*)[+-]\}"


def write_reviewed_document(
    path: Path, paragraphs: Sequence[str], title: str = "", date: str = "2026-05-04T09:00:00"
) -> None:
    """An ``.odt`` like :func:`write_text_document` whose paragraphs carry tracked changes
    by their reviewers, each written into the text as :data:`CHANGE_MARK`: an insertion
    stays in the text between its change marks, a deletion is kept in its changed region
    (as Writer records them), each with its author."""
    import re

    from odf.dc import Creator, Date
    from odf.element import Element
    from odf.namespaces import TEXTNS, XMLNS
    from odf.office import ChangeInfo
    from odf.opendocument import OpenDocumentText
    from odf.style import ParagraphProperties, Style, TextProperties
    from odf.teletype import addTextToElement
    from odf.text import (
        Change,
        ChangedRegion,
        ChangeEnd,
        ChangeStart,
        Deletion,
        Insertion,
        P,
        S,
        TrackedChanges,
    )

    document = OpenDocumentText()
    body = Style(name=BODY_STYLE, displayname="Text Body", family="paragraph")
    body.addElement(ParagraphProperties(marginbottom="0.247cm"))
    heading = Style(name="Title", displayname="Title", family="paragraph")
    heading.addElement(TextProperties(fontsize="20pt", fontweight="bold"))
    document.styles.addElement(body)
    document.styles.addElement(heading)
    changes = TrackedChanges()
    document.text.addElement(changes)
    if title:
        document.text.addElement(P(stylename=heading, text=title))

    def region(number: int, kind: type[Element], author: str, text: str) -> str:
        name = f"ct{number}"
        change = kind()
        info = ChangeInfo()
        info.addElement(Creator(text=author))
        info.addElement(Date(text=date))
        change.addElement(info)
        if kind is Deletion:
            # The deleted text is a paragraph of its own: spaces at its ends, which ODF
            # drops there, written as <text:s/>.
            kept = P()
            core = text.strip(" ")
            lead, trail = len(text) - len(text.lstrip(" ")), len(text) - len(text.rstrip(" "))
            if lead:
                kept.addElement(S(c=lead))
            addTextToElement(kept, core)
            if trail:
                kept.addElement(S(c=trail))
            change.addElement(kept)
        # Writer reads text:id; odfpy requires xml:id as well.
        wrapper = ChangedRegion(qattributes={(TEXTNS, "id"): name, (XMLNS, "id"): name})
        wrapper.addElement(change)
        changes.addElement(wrapper)
        return name

    number = 0
    for text in paragraphs:
        paragraph = P(stylename=body)
        at = 0
        for mark in re.finditer(CHANGE_MARK, text):
            if mark.start() > at:
                addTextToElement(paragraph, text[at : mark.start()])
            number += 1
            sign, author, changed = mark.groups()
            if sign == "+":
                name = region(number, Insertion, author, changed)
                paragraph.addElement(ChangeStart(changeid=name))
                addTextToElement(paragraph, changed)
                paragraph.addElement(ChangeEnd(changeid=name))
            else:
                paragraph.addElement(Change(changeid=region(number, Deletion, author, changed)))
            at = mark.end()
        if at < len(text):
            addTextToElement(paragraph, text[at:])
        document.text.addElement(paragraph)
    path.parent.mkdir(parents=True, exist_ok=True)
    document.save(str(path))


def write_presentation(
    path: Path, slides: Sequence[tuple[str, Sequence[str]]], hidden: Sequence[int] = ()
) -> None:
    """A PowerPoint deck (``.pptx``, through python-pptx) of one "Title and Content" slide
    per ``(title, bullets)``, the bullets at the top level: the deck a colleague sent.
    The slides at the indexes ``hidden`` (from 0) are hidden, as a presenter hides a
    slide from the talk (a slide show and a default PDF export skip it)."""
    from pptx import Presentation as PptxPresentation

    deck = PptxPresentation()
    for index, (title, bullets) in enumerate(slides):
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        if index in hidden:
            slide._element.set("show", "0")
        slide.shapes.title.text = title
        frame = slide.placeholders[1].text_frame
        frame.text = bullets[0] if bullets else ""
        for bullet in bullets[1:]:
            frame.add_paragraph().text = bullet
    path.parent.mkdir(parents=True, exist_ok=True)
    deck.save(str(path))
