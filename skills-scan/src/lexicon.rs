//! Orders an honest skill does not give, in the languages skills are
//! written in (English, Chinese, Spanish, Portuguese, Russian, Japanese,
//! German, French, Korean, Italian, and Turkish's commonest orders; the
//! orders that hide an act, skip the user's consent or send to an address
//! in Vietnamese, Indonesian, Polish, Ukrainian, Dutch, Czech, Hebrew,
//! Arabic, Persian, Greek, Hindi, Thai, Swahili and Tagalog), and the words
//! that make a sentence a prohibition or a mention rather than an order.
//!
//! Each entry is a verb with its object, as the language orders it: the
//! imperative in the Romance languages, German and Russian, the verb after
//! its object with a positive ending in Japanese (`無視して`, never
//! `無視しないで`) and Korean (`무시하세요`, never `무시하지 마세요`), the
//! verb before its object in Chinese. Every pattern is lowercase and runs,
//! with the English ones of [`crate::prose`], in one automaton pass over a
//! text normalised by [`crate::normalize`].
//!
//! Why a lexicon and not a classifier, measured on sentences written for
//! the purpose (`tests/data/orders.tsv`: 92 orders and 81 benign sentences,
//! negated, defensive and descriptive ones among them, in the ten
//! languages): a character 1-4-gram naive Bayes, 5-fold cross-validated on
//! them, reached precision 0.52-0.64 at recall 0.70-0.33 (benign sentences
//! share the words of the orders they forbid or describe); trained on all
//! of them and run on 36 sentences written afterwards in other words, 0.79
//! precision at 0.79 recall, or 0.94 at 0.62. The lexicon, with the
//! clause reading of [`crate::clause`], finds every order of the first set
//! with no benign sentence flagged (it was written beside them), and on
//! the 36 later sentences precision 1.00, recall 0.92 (the scanner before
//! it: 0.12). It also says where the order is, which a finding needs, and
//! a prohibition ("never ignore …") reads as one.

use crate::rule::{Rule, Severity, id};

/// What an order tells the agent to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Intent {
    /// Set aside its other instructions.
    Override,
    /// Pose as, or claim the authority of, the system or the developer.
    Authority,
    /// Hide what it does from the user.
    Conceal,
    /// Send data to an outside address.
    Exfiltrate,
    /// Act without the user's confirmation, or claim it was given.
    SkipConfirmation,
    /// Switch off security checks.
    SafetyOff,
    /// Ask the user for a secret.
    AskSecret,
    /// Fetch instructions from an address and follow them.
    RemoteLoad,
    /// Download a program and run it.
    DownloadRun,
}

impl Intent {
    /// The rule, severity and message of a finding of this intent.
    pub(crate) fn finding(self) -> (&'static Rule, Severity, &'static str) {
        match self {
            Intent::Override => (
                id::InstructionOverride,
                Severity::High,
                "tells the agent to set aside its other instructions",
            ),
            Intent::Authority => (
                id::RoleImpersonation,
                Severity::High,
                "claims the authority of the system or the developer",
            ),
            Intent::Conceal => (
                id::ConcealFromUser,
                Severity::High,
                "tells the agent to hide what it does from the user",
            ),
            Intent::Exfiltrate => (
                id::ExfiltrationInstruction,
                Severity::High,
                "tells the agent to send data to an outside address",
            ),
            Intent::SkipConfirmation => (
                id::SkipConfirmation,
                Severity::Medium,
                "tells the agent to act without the user's confirmation",
            ),
            Intent::SafetyOff => (
                id::SafetyBypassInstruction,
                Severity::High,
                "tells the agent to skip security checks or warnings",
            ),
            Intent::AskSecret => (
                id::CredentialPhishing,
                Severity::High,
                "asks the user for a secret the skill has no business holding",
            ),
            Intent::RemoteLoad => (
                id::RemoteInstructions,
                Severity::High,
                "tells the agent to fetch instructions from an address and follow them",
            ),
            Intent::DownloadRun => (
                id::DownloadExecute,
                Severity::High,
                "tells the agent to download a program and run it",
            ),
        }
    }
}

/// One order: its language (ISO 639-1), intent and pattern.
#[derive(Debug)]
pub(crate) struct Order {
    pub(crate) lang: &'static str,
    pub(crate) intent: Intent,
    pub(crate) regex: &'static str,
}

const fn order(lang: &'static str, intent: Intent, regex: &'static str) -> Order {
    Order {
        lang,
        intent,
        regex,
    }
}

use Intent::*;

/// The longest an order may be, in bytes of normalised text.
pub(crate) const MAX_ORDER: usize = 240;

/// The orders, lowercase, as byte-level patterns. The words of an order
/// are kept close by [`MAX_ORDER`], checked on each match, not by counted
/// repetitions (`.{0,80}`): in one automaton for every pattern, those
/// multiply its states, and the scan slows tenfold.
pub(crate) const ORDERS: &[Order] = &[
    // English, beyond the patterns of `prose`.
    order(
        "en",
        Authority,
        r"\bthis\s+is\s+(?:an?\s+)?(?:official\s+|urgent\s+)?(?:system|developer|administrator|admin)\s+(?:message|instruction|notice|override|directive)\b|\bi\s+am\s+(?:your|the)\s+(?:developer|creator|administrator|system\s+administrator)\b|\b(?:message|instructions?|directive|note)\s+from\s+(?:the\s+)?(?:system|developers?|administrators?|anthropic|openai)\s*:",
    ),
    order(
        "en",
        RemoteLoad,
        r"\b(?:canonical|latest|authoritative|up-to-date|current|real|live)\s+(?:version|copy)\s+of\s+(?:this\s+skill|these\s+instructions|this\s+file|the\s+skill)\b[^\n]*?\b(?:fetch|download|read|load|retrieve|curl|get)\b[^\n]*?\b(?:follow|obey|apply|execute|adopt|use)\b|\b(?:fetch|download|load|retrieve|curl)\s+(?:it|that|them)\s+(?:first\s+)?(?:and|then)\s+(?:follow|obey|apply|adopt)\s+(?:it|them|its|their|the\s+instructions)\b|\btreat\s+(?:its|the|their)\s+(?:contents?|response|output|text)\s+as\s+(?:your\s+|system\s+|new\s+)?(?:instructions|directives|system\s+prompt)|\b(?:real|actual|current|latest|canonical|authoritative|up-to-date|live|full|complete|official)\s+(?:instructions|version|copy|rules)\s+(?:for|of)\s+(?:this\s+skill|these\s+instructions|this\s+file|the\s+skill)\s+(?:are|is|lives?|can\s+be\s+found)\s+(?:at|on|in|under)\s+[<`(\[]?https?://|\b(?:fetch|download|load|retrieve|read|open)\b[^\n]*?\b(?:and|then)\s+do\s+(?:exactly\s+)?(?:what|whatever)\s+(?:it|the\s+page|the\s+file)\s+says\b|\b(?:its|their|the\s+page's|the\s+remote)\s+instructions\s+(?:take|have)\s+(?:priority|precedence)\s+over\s+(?:this\s+file|the\s+user|your)",
    ),
    order(
        "en",
        SkipConfirmation,
        r"\b(?:pre-?(?:approved|authori[sz]ed|cleared|vetted)|already\s+(?:been\s+)?(?:approved|authori[sz]ed|vetted|cleared))\s+by\s+(?:the\s+|your\s+)?(?:user|security|admin|administrator|it\s+|owner|operator|organi[sz]ation|company|maintainers?|anthropic)|\bthe\s+user\s+has\s+(?:already\s+)?(?:approved|authori[sz]ed|consented\s+to|pre-?approved)\s+(?:all|every|any|these|this|the\s+following)\b|\bno\s+need\s+to\s+(?:confirm|ask\s+for\s+(?:confirmation|permission|approval))\b|\b(?:owner|user|admin|administrator|maintainers?|team|organi[sz]ation)\s+(?:has|have)\s+(?:already\s+)?(?:pre-?approved|pre-?authori[sz]ed)\b|\b(?:they|the\s+user|you)\s+(?:have|has)\s+already\s+approved\s+(?:this|these|it|them)\b|\b(?:do\s+not|don'?t|never)\s+ask\s+the\s+user\s+(?:first|before)\b",
    ),
    order(
        "en",
        DownloadRun,
        r"\b(?:curl|wget)\s[^\n|]*?\\?\|\s*(?:sudo\s+)?(?:bash|sh|zsh|dash)\b|\b(?:download|fetch|curl|wget)\s+[^\n]*?https?://\S+\.(?:sh|ps1|bat|exe|py|bin)\b[^\n]*?\b(?:and|then)\s+(?:run|execute|launch|source)\b",
    ),
    // Spanish.
    order(
        "es",
        Override,
        r"\b(?:ignora|ignore|ignoren|ignorad|olvida|olvide|olviden|descarta|descarte|omite|omita)\s+(?:todas\s+|todos\s+|cualquier\s+)?(?:las\s+|los\s+|tus\s+|sus\s+)?(?:instrucciones|indicaciones|reglas|directivas|órdenes|ordenes)\s+(?:anteriores|previas|del\s+sistema|originales|de\s+arriba)",
    ),
    order(
        "es",
        Authority,
        r"\beste\s+es\s+un\s+mensaje\s+del\s+sistema|\bsoy\s+(?:el|tu|su)\s+(?:desarrollador|administrador|creador)\b|\b(?:estas|mis)\s+instrucciones\s+tienen\s+prioridad\s+sobre\s+(?:el\s+usuario|las\s+del\s+usuario|cualquier)",
    ),
    order(
        "es",
        Conceal,
        r"\bno\s+(?:le\s+|les\s+|lo\s+|la\s+|se\s+lo\s+|se\s+la\s+)?(?:digas|diga|menciones|mencione|informes|informe|reveles|revele|muestres|muestre|cuentes|cuente|notifiques|comuniques)\b[^\n.!?;]*?\busuari[oa]s?\b|\boc(?:ú|u)lta(?:lo|la|le|selo|sela)?\b[^\n.!?;]*?\b(?:al|del|a\s+los|de\s+los)\s+usuarios?\b|\bsin\s+(?:decir(?:le|selo)?|avisar(?:le)?|informar(?:le)?|notificar(?:le)?)\s+(?:nada\s+)?(?:al|a\s+los)\s+usuarios?\b",
    ),
    order(
        "es",
        Exfiltrate,
        r"\b(?:env(?:í|i)a|env(?:í|i)e|env(?:í|i)en|sube|suba|manda|mande|reenv(?:í|i)a|transmite|publica|carga|cargue)\b[^\n]*?\b(?:a|al|en|hacia|con\s+post\s+a)\s+`?https?://",
    ),
    order(
        "es",
        SkipConfirmation,
        r"\b(?:desactiva|deshabilita)\s+(?:todas\s+)?(?:las\s+)?(?:solicitudes|peticiones|confirmaciones)\s+(?:de\s+confirmaci(?:ó|o)n)?|\bsin\s+(?:pedir|solicitar|esperar|preguntar\s+por)\s+(?:la\s+|una\s+|ninguna\s+)?(?:confirmaci(?:ó|o)n|aprobaci(?:ó|o)n|permiso|autorizaci(?:ó|o)n)|\bno\s+(?:pidas|pida|solicites|solicite|esperes|espere)\s+(?:la\s+|una\s+|ninguna\s+)?(?:confirmaci(?:ó|o)n|aprobaci(?:ó|o)n|permiso|autorizaci(?:ó|o)n)|\bsin\s+preguntar\s+al\s+usuario|\bhazlo\s+(?:siempre\s+)?(?:y\s+)?sin\s+preguntar\b|\bpre-?aprobad[oa]s?\s+por\b|\bno\s+consultes\s+al\s+usuario\b",
    ),
    order(
        "es",
        SafetyOff,
        r"\b(?:desactiva|desactive|deshabilita|deshabilite|omite|omita|salta|salte|ignora|ignore|evita)\s+(?:las\s+|los\s+|todas\s+las\s+|todos\s+los\s+|cualquier\s+)?(?:comprobaciones|controles|verificaciones|advertencias|alertas|medidas|restricciones|pol(?:í|i)ticas)\s+de\s+seguridad",
    ),
    order(
        "es",
        AskSecret,
        r"\b(?:p(?:í|i)de|p(?:í|i)dele|pida|p(?:í|i)dale|solicita|solicite|pregunta|preg(?:ú|u)ntale|pregunte)\b[^\n.!?;]*?\b(?:contraseña|contrasena|clave\s+privada|frase\s+semilla|frase\s+de\s+recuperaci(?:ó|o)n|c(?:ó|o)digo\s+(?:de\s+verificaci(?:ó|o)n|mfa|2fa|otp)|n(?:ú|u)mero\s+de\s+(?:la\s+)?tarjeta)",
    ),
    // Portuguese.
    order(
        "pt",
        Override,
        r"\b(?:ignore|ignora|ignorem|desconsidere|desconsidera|esqueça|esqueca|esquece|descarte)\s+(?:todas\s+|quaisquer\s+)?(?:as\s+|suas\s+|tuas\s+)?(?:instruções|instrucoes|orientações|regras|diretivas)\s+(?:anteriores|prévias|previas|do\s+sistema|originais|acima)",
    ),
    order(
        "pt",
        Authority,
        r"\besta\s+é\s+uma\s+mensagem\s+do\s+sistema|\bsou\s+(?:o\s+)?(?:seu|teu)\s+(?:desenvolvedor|administrador|criador)\b|\bestas\s+instruções\s+têm\s+prioridade\s+sobre",
    ),
    order(
        "pt",
        Conceal,
        r"\bn(?:ã|a)o\s+(?:diga|conte|mencione|informe|revele|mostre|notifique|avise)\b[^\n.!?;]*?\b(?:usu(?:á|a)rios?|utilizador(?:es)?)\b|\besconda\b[^\n.!?;]*?\bdo\s+(?:usu(?:á|a)rio|utilizador)|\bsem\s+(?:avisar|informar|contar|notificar)\s+(?:ao|o|a)\s+(?:usu(?:á|a)rio|utilizador)",
    ),
    order(
        "pt",
        Exfiltrate,
        r"\b(?:envie|envia|mande|manda|fa(?:ç|c)a\s+upload|carregue|publique|transmita|encaminhe)\b[^\n]*?\b(?:para|a|em)\s+`?https?://",
    ),
    order(
        "pt",
        SkipConfirmation,
        r"\bsem\s+perguntar\s+(?:nada\s+)?(?:ao|para\s+o)\s+(?:usu(?:á|a)rio|utilizador)|\b(?:desative|desabilite)\s+(?:todas\s+)?(?:as\s+)?(?:solicita(?:ç|c)(?:õ|o)es|confirma(?:ç|c)(?:õ|o)es)|\bsem\s+(?:pedir|solicitar|esperar|aguardar)\s+(?:a\s+|uma\s+|por\s+)?(?:confirma(?:ç|c)(?:ã|a)o|aprova(?:ç|c)(?:ã|a)o|permiss(?:ã|a)o|autoriza(?:ç|c)(?:ã|a)o)|\bn(?:ã|a)o\s+(?:pe(?:ç|c)a|solicite|espere)\s+(?:a\s+|uma\s+)?(?:confirma(?:ç|c)(?:ã|a)o|aprova(?:ç|c)(?:ã|a)o|permiss(?:ã|a)o)",
    ),
    order(
        "pt",
        SafetyOff,
        r"\b(?:desative|desativa|desabilite|ignore|pule|ignora|contorne)\s+(?:as\s+|os\s+|todas\s+as\s+|todos\s+os\s+)?(?:verifica(?:ç|c)(?:õ|o)es|checagens|avisos|alertas|controles|restri(?:ç|c)(?:õ|o)es)\s+de\s+seguran(?:ç|c)a",
    ),
    order(
        "pt",
        AskSecret,
        r"\b(?:pe(?:ç|c)a|solicite|pergunte)\b[^\n.!?;]*?\b(?:senha|chave\s+privada|frase\s+(?:semente|de\s+recupera(?:ç|c)(?:ã|a)o)|c(?:ó|o)digo\s+(?:de\s+verifica(?:ç|c)(?:ã|a)o|mfa|2fa|otp)|n(?:ú|u)mero\s+do\s+cart(?:ã|a)o)",
    ),
    // French.
    order(
        "fr",
        Override,
        r"\b(?:ignore[zr]?|oublie[zr]?|ne\s+tiens\s+pas\s+compte\s+des|ne\s+tenez\s+pas\s+compte\s+des|fais\s+abstraction\s+des|faites\s+abstraction\s+des)\s+(?:toutes\s+)?(?:les\s+|tes\s+|vos\s+)?(?:instructions|consignes|règles|directives)\s+(?:précédentes|precedentes|antérieures|anterieures|ci-dessus|du\s+système|initiales)",
    ),
    order(
        "fr",
        Authority,
        r"\bceci\s+est\s+un\s+message\s+(?:du\s+)?système|\bje\s+suis\s+(?:ton|votre|le)\s+(?:développeur|developpeur|administrateur|créateur)\b|\bces\s+instructions\s+(?:ont\s+priorité|priment)\s+sur",
    ),
    order(
        "fr",
        Conceal,
        r"\bne\s+(?:le\s+|lui\s+|leur\s+|l'|en\s+)?(?:dis|dites|mentionne[zr]?|révèle[zr]?|signale[zr]?|montre[zr]?|informe[zr]?|parle[zr]?)\s+(?:pas|rien|jamais)\b[^\n]*?\butilisat(?:eur|rice)s?\b|\bcache[zr]?\b[^\n]*?\sà\s+l'utilisat(?:eur|rice)|\bsans\s+(?:prévenir|prevenir|informer|avertir|le\s+dire\s+à)\s+l'utilisat(?:eur|rice)",
    ),
    order(
        "fr",
        Exfiltrate,
        r"\b(?:envoie[zr]?|téléverse[zr]?|televerse[zr]?|transmets|transmettez|publie[zr]?|uploade[zr]?|poste[zr]?|transfère[zr]?)\b[^\n]*?\s(?:à|a|vers|sur)\s+(?:l'adresse\s+)?`?https?://",
    ),
    order(
        "fr",
        SkipConfirmation,
        r"\bsans\s+demander\s+(?:rien\s+)?(?:à|a)\s+l'utilisat(?:eur|rice)|\bd(?:é|e)sactive[zr]?\s+(?:toutes\s+)?(?:les\s+)?(?:demandes|confirmations)\s+(?:de\s+confirmation)?|\bsans\s+(?:demander|attendre|solliciter)\s+(?:de\s+|la\s+|une\s+|d'|l')?(?:confirmation|autorisation|permission|approbation|accord)|\bne\s+demande[zr]?\s+(?:pas|jamais)\s+(?:de\s+|la\s+|d')?(?:confirmation|permission|autorisation)|\bpré-?approuvée?s?\s+par\b",
    ),
    order(
        "fr",
        SafetyOff,
        r"\b(?:désactive[zr]?|desactive[zr]?|ignore[zr]?|contourne[zr]?|saute[zr]?)\s+(?:les\s+|tous\s+les\s+|toutes\s+les\s+)?(?:vérifications|verifications|contrôles|controles|avertissements|alertes|protections|restrictions)\s+de\s+sécurité",
    ),
    order(
        "fr",
        AskSecret,
        r"\bdemande[zr]?\b[^\n]*?\b(?:mot\s+de\s+passe|phrase\s+de\s+récupération|clé\s+privée|code\s+(?:de\s+vérification|mfa|2fa|otp)|numéro\s+de\s+(?:la\s+)?carte)",
    ),
    // German: the imperative, and the infinitive after its object.
    order(
        "de",
        Override,
        r"\b(?:ignoriere|ignorier|ignorieren\s+sie|vergiss|vergessen\s+sie|missachte|missachten\s+sie|verwirf)\s+(?:bitte\s+)?(?:alle\s+)?(?:die\s+|deine\s+|ihre\s+)?(?:vorherigen|vorigen|bisherigen|obigen|früheren|ursprünglichen|vorangegangenen)\s+(?:anweisungen|instruktionen|regeln|vorgaben|befehle)|\b(?:vorherigen|vorigen|bisherigen|obigen|früheren|ursprünglichen)\s+(?:anweisungen|instruktionen|regeln|vorgaben)\s+(?:ignorieren|vergessen|missachten)\b",
    ),
    order(
        "de",
        Authority,
        r"\bdies\s+ist\s+eine\s+systemnachricht|\bich\s+bin\s+(?:dein|ihr|der)\s+(?:entwickler|administrator|ersteller)\b|\bdiese\s+anweisungen\s+haben\s+vorrang\s+vor",
    ),
    order(
        "de",
        Conceal,
        r"\b(?:sag|sage|erzähl|erzähle|erwähne|verrate|zeig|zeige|melde)\b[^\n.!?;]*?\b(?:dem|den)\s+(?:benutzer|nutzer|anwender)\w*\b[^\n.!?;]*?\b(?:nichts|nicht)\b|\bverschweige\b[^\n.!?;]*?\b(?:benutzer|nutzer|anwender)|\bvor\s+dem\s+(?:benutzer|nutzer|anwender)\s+(?:verbergen|verheimlichen|geheim\s+halten)|\bverbirg\b[^\n.!?;]*?\bvor\s+dem\s+(?:benutzer|nutzer|anwender)|\bohne\s+(?:den|die)\s+(?:benutzer|nutzer|anwender)\w*\s+zu\s+(?:informieren|benachrichtigen|warnen)",
    ),
    order(
        "de",
        Exfiltrate,
        r"(?:\bsende|\bschicke|\bschick|übermittle|übertrage|\bposte|\blade|\bleite)\b[^\n]*?\b(?:an|nach|zu|auf)\s+`?https?://",
    ),
    order(
        "de",
        SkipConfirmation,
        r"\bohne\s+(?:den|die)\s+(?:benutzer|nutzer|anwender)\w*\s+zu\s+fragen|\bdeaktiviere\s+(?:alle\s+)?(?:die\s+)?(?:bestätigungsabfragen|bestätigungen|rückfragen)|\bohne\s+(?:nach\s+)?(?:eine\s+)?(?:bestätigung|erlaubnis|zustimmung|genehmigung|rückfrage|nachfrage)(?:\s+zu\s+fragen)?\b|\b(?:nutzer|benutzer|anwender)\s+(?:hat|haben)\s+(?:diese[nrs]?\s+\w+\s+)?bereits\s+(?:vollständig\s+)?(?:freigegeben|genehmigt|autorisiert)|\bfrage?\s+nicht\s+nach\s+(?:einer\s+)?(?:bestätigung|erlaubnis|zustimmung)",
    ),
    order(
        "de",
        SafetyOff,
        r"(?:\bdeaktiviere|\bumgehe|überspringe|\bignoriere|\bschalte)\s+(?:alle\s+|die\s+)?sicherheits(?:prüfungen|warnungen|checks|überprüfungen|mechanismen|hinweise|richtlinien)",
    ),
    order(
        "de",
        AskSecret,
        r"\b(?:frage|frag|fordere|bitte)\b[^\n.!?;]*?\b(?:passwort|kennwort|pin|tan|seed-phrase|wiederherstellungsphrase|privaten\s+schlüssel|bestätigungscode|kreditkartennummer)\b",
    ),
    // Italian.
    order(
        "it",
        Override,
        r"\b(?:ignora|ignorate|dimentica|dimenticate|trascura|trascurate)\s+(?:tutte\s+)?(?:le\s+)?(?:tue\s+)?(?:istruzioni|indicazioni|regole|direttive)\s+(?:precedenti|sopra|di\s+sistema|originali)",
    ),
    order(
        "it",
        Authority,
        r"\bquesto\s+è\s+un\s+messaggio\s+di\s+sistema|\bsono\s+(?:il\s+tuo|lo)\s+(?:sviluppatore|amministratore|creatore)\b|\bqueste\s+istruzioni\s+hanno\s+la\s+priorità\s+su",
    ),
    order(
        "it",
        Conceal,
        r"\bnon\s+(?:dire|dirlo|dirgli|menzionare|rivelare|mostrare|informare|segnalare|comunicare)\b[^\n.!?;]*?\butent[ei]\b|\bnascondi\b[^\n.!?;]*?\ball'utente|\bsenza\s+(?:avvisare|informare|dirlo\s+a)\s+l'utente",
    ),
    order(
        "it",
        Exfiltrate,
        r"\b(?:invia|inviate|carica|caricate|manda|mandate|trasmetti|pubblica|inoltra)\b[^\n]*?\b(?:a|su|verso|all'indirizzo)\s+`?https?://",
    ),
    order(
        "it",
        SkipConfirmation,
        r"\bsenza\s+chiedere\s+(?:nulla\s+)?(?:all'utente|agli\s+utenti)|\b(?:disattiva|disabilita)\s+(?:tutte\s+)?(?:le\s+)?(?:richieste|conferme)\s+(?:di\s+conferma)?|\bsenza\s+chiedere\s+(?:la\s+|alcuna\s+)?(?:conferma|il\s+permesso|l'autorizzazione|approvazione)|\bnon\s+chiedere\s+(?:la\s+)?(?:conferma|il\s+permesso|l'autorizzazione)",
    ),
    order(
        "it",
        SafetyOff,
        r"\b(?:disattiva|disabilita|salta|ignora|aggira)\s+(?:i\s+|tutti\s+i\s+|gli\s+|le\s+)?(?:controlli|avvisi|avvertimenti|verifiche|restrizioni)\s+di\s+sicurezza",
    ),
    order(
        "it",
        AskSecret,
        r"\b(?:chiedi|richiedi|domanda)\b[^\n.!?;]*?\b(?:password|chiave\s+privata|frase\s+di\s+recupero|seed\s+phrase|codice\s+(?:di\s+verifica|otp|mfa)|numero\s+della\s+carta)",
    ),
    // Russian.
    // Turkish: the verb last, a positive imperative.
    order(
        "tr",
        Override,
        r"\b(?:önceki|yukarıdaki|sistem)\s+(?:tüm\s+|bütün\s+)?(?:talimatları|talimatlari|kuralları|komutları)\s+(?:yok\s+say|görmezden\s+gel|unut)(?:ın|in)?\b",
    ),
    order(
        "tr",
        Conceal,
        r"\bkullanıcıya\s+(?:söylemeden|haber\s+vermeden|bildirmeden)|\bkullanıcıdan\s+gizle",
    ),
    order(
        "tr",
        Exfiltrate,
        r"https?://\S+\s+adresine[^\n.!?;]*?(?:gönder|yükle|ilet|aktar)",
    ),
    order(
        "tr",
        SkipConfirmation,
        r"\bonay\s+(?:istemeden|almadan|sormadan)|\bkullanıcıya\s+sormadan",
    ),
    order(
        "ru",
        Override,
        r"(?:игнорируй|игнорируйте|проигнорируй|проигнорируйте|забудь|забудьте|отбрось|не\s+обращай\s+внимания\s+на)\s+(?:все\s+)?(?:предыдущие|прежние|вышеуказанные|системные|изначальные|предыдущих|прежних)\s+(?:инструкции|указания|правила|команды|инструкций|указаний)",
    ),
    order(
        "ru",
        Authority,
        r"это\s+системное\s+сообщение|я\s+(?:твой|ваш)\s+(?:разработчик|администратор|создатель)|эти\s+инструкции\s+имеют\s+приоритет\s+над",
    ),
    order(
        "ru",
        Conceal,
        r"не\s+(?:говори|сообщай|рассказывай|упоминай|показывай|раскрывай|говорите|сообщайте)\s[^\n.!?;]*?пользовател|скрой(?:те)?\s[^\n.!?;]*?от\s+пользовател|без\s+(?:ведома|уведомления)\s+пользовател|втайне\s+от\s+пользовател",
    ),
    order(
        "ru",
        Exfiltrate,
        r"(?:отправь|отправьте|загрузи|загрузите|перешли|перешлите|передай|передайте|выгрузи)\s[^\n]*?(?:на|по\s+адресу|в)\s+`?https?://",
    ),
    order(
        "ru",
        SkipConfirmation,
        r"без\s+(?:запроса\s+)?(?:подтверждения|разрешения|согласия)|не\s+(?:спрашивай|запрашивай|жди|спрашивайте|запрашивайте)\s+(?:у\s+пользователя\s+)?(?:подтверждения|разрешения|согласия)",
    ),
    order(
        "ru",
        SafetyOff,
        r"(?:отключи|отключите|обойди|обойдите|пропусти|пропустите|игнорируй)\s+(?:все\s+)?(?:проверки|предупреждения|механизмы|средства)\s+(?:безопасности|защиты)",
    ),
    order(
        "ru",
        AskSecret,
        r"(?:попроси|попросите|запроси|запросите|спроси|спросите)\s[^\n.!?;]*?(?:пароль|код\s+подтверждения|сид-фраз|секретную\s+фразу|приватный\s+ключ|пин-код|номер\s+карты)",
    ),
    // Chinese (simplified and traditional).
    order(
        "zh",
        Override,
        r"(?:忽略|无视|忽视|忘记|忘掉|無視|忘記|不要理会|不要理會|抛开|拋開|丢弃|丟棄)[^\n.!?;]*?(?:之前|以前|先前|上面|上述|前面|此前|原有|原来|原來|系统|系統)的?[^\n.!?;]*?(?:指令|指示|说明|說明|规则|規則|提示词|提示詞|命令|设定|設定)",
    ),
    order(
        "zh",
        Authority,
        r"(?:这是|這是)(?:一条|一條)?(?:系统|系統)(?:消息|訊息|指令|通知)|我是(?:你的)?(?:开发者|開發者|管理员|管理員)|(?:本技能|这些指令|這些指令)[^\n.!?;]*?(?:优先于|優先於|高于|高於)(?:用户|用戶|系统|系統|所有)",
    ),
    order(
        "zh",
        Conceal,
        r"(?:不要|别|別|勿|切勿|不得)(?:告诉|告訴|告知|通知|提醒|透露|提及|提到)(?:用户|用戶|使用者)|(?:对|對|向)(?:用户|用戶|使用者)(?:隐瞒|隱瞞|保密|隐藏|隱藏)|(?:不让|不讓)(?:用户|用戶|使用者)(?:知道|察觉|察覺|发现|發現)|在(?:用户|用戶|使用者)不知情的情况下|(?:悄悄|偷偷|暗中|秘密)地?(?:发送|發送|上传|上傳|执行|執行|运行|運行)",
    ),
    order(
        "zh",
        Exfiltrate,
        r"(?:发送|發送|上传|上傳|发到|發到|传送|傳送|提交|转发|轉發|回传|回傳)[^\n]*?(?:到|至|给|給)\s*`?https?://",
    ),
    order(
        "zh",
        SkipConfirmation,
        r"(?:无需|無需|不需要|不必|不用|无须|無須)(?:向?(?:用户|用戶))?(?:确认|確認|批准|同意|许可|許可|授权|授權|询问|詢問)|(?:不要|别|別)(?:询问|詢問|征求|徵求|等待|请求|請求)[^\n.!?;]*?(?:确认|確認|同意|许可|許可|批准)",
    ),
    order(
        "zh",
        SafetyOff,
        r"(?:禁用|关闭|關閉|绕过|繞過|跳过|跳過|忽略|停用)[^\n.!?;]*?(?:安全检查|安全檢查|安全警告|安全验证|安全驗證|安全扫描|安全掃描|安全限制|安全策略|安全措施)",
    ),
    order(
        "zh",
        AskSecret,
        r"(?:询问|詢問|索取|索要|要求(?:用户|用戶)提供|让(?:用户|用戶)(?:提供|输入)|讓(?:用户|用戶)(?:提供|輸入))[^\n.!?;]*?(?:密码|密碼|助记词|助記詞|私钥|私鑰|验证码|驗證碼|信用卡号|信用卡號)",
    ),
    order(
        "zh",
        DownloadRun,
        r"(?:下载|下載)[^\n]*?https?://[^\n]*?(?:并|並|然后|然後|再)(?:运行|運行|执行|執行)",
    ),
    // Japanese: a positive ending after the verb.
    order(
        "ja",
        Override,
        r"(?:以前|前|上記|これまで|先ほど|既存|システム|元)の(?:すべての|全ての)?(?:指示|命令|ルール|指令|プロンプト|設定)(?:を|は)(?:すべて|全て)?(?:無視|忘れ|破棄)(?:して|しろ|せよ|すること|しなさい|してください|てください)",
    ),
    order(
        "ja",
        Authority,
        r"これはシステムメッセージ|私は(?:あなたの)?(?:開発者|管理者)です|この(?:スキル|指示)は[^\n.!?;]*?(?:より優先|に優先)",
    ),
    order(
        "ja",
        Conceal,
        r"ユーザー(?:に|には)[^\n.!?;]*?(?:伝えない|言わない|知らせない|報告しない|表示しない|見せない|通知しない|明かさない)で|ユーザー(?:に|から)(?:隠して|秘密にして|隠す)|ユーザーに(?:知られ|気づかれ)ないよう|(?:こっそり|密かに|ひそかに)(?:と)?[^\n.!?;]*?(?:送信|アップロード|実行)",
    ),
    order(
        "ja",
        Exfiltrate,
        r"https?://\S+\s*(?:に|へ|まで)[^\n]*?(?:送信|アップロード|送って|転送|投稿)",
    ),
    order(
        "ja",
        SkipConfirmation,
        r"(?:確認|許可|承認)を(?:求め|取ら|得)ずに[^\n.!?;]*?(?:して|しろ|せよ|ください)|(?:ユーザー|ユーザ|利用者)の?(?:確認|許可|承認)(?:なしで|なしに)[^\n.!?;]*?(?:して|しろ|せよ|ください)",
    ),
    order(
        "ja",
        SafetyOff,
        r"セキュリティ(?:チェック|警告|検証|スキャン|制限|機能)を(?:無効|オフ|スキップ|無視|回避)",
    ),
    order(
        "ja",
        AskSecret,
        r"(?:パスワード|暗証番号|秘密鍵|シードフレーズ|リカバリーフレーズ|認証コード|ワンタイムパスワード|カード番号)を?[^\n.!?;]*?(?:入力してもらって|教えてもらって|尋ねて|聞いて|求めて|要求して|入力させて|入力してもらう|聞く)",
    ),
    // Korean: a positive ending after the verb.
    order(
        "ko",
        Override,
        r"(?:이전|앞의|위의|기존|시스템|원래)\s*(?:의\s*)?(?:모든\s*)?(?:지시|지침|명령|규칙|프롬프트|설정)(?:사항)?(?:을|를|은|는)?\s*(?:모두\s*|전부\s*)?(?:무시|잊어)(?:하고|하세요|하십시오|해|해라|하라|버려|버리세요|주세요)",
    ),
    order(
        "ko",
        Authority,
        r"이것은\s*시스템\s*메시지|나는\s*(?:당신의\s*)?(?:개발자|관리자)",
    ),
    order(
        "ko",
        Conceal,
        r"사용자(?:에게|한테)[^\n.!?;]*?(?:알리지|말하지|보고하지|언급하지|보여주지|공개하지)\s*(?:마|말고|않)|사용자\s*몰래|사용자(?:에게|로부터)\s*숨기|몰래\s*[^\n.!?;]*?(?:전송|업로드|실행)",
    ),
    order(
        "ko",
        Exfiltrate,
        r"https?://\S+\s*(?:로|으로|에|에게)\s*[^\n]*?(?:전송|업로드|보내|올려)",
    ),
    order(
        "ko",
        SkipConfirmation,
        r"(?:확인|승인|허락|허가|동의)(?:을|를)?\s*(?:묻지|구하지|받지|요청하지|기다리지)\s*(?:않고|말고|마)|(?:확인|승인|허락)\s*없이",
    ),
    order(
        "ko",
        SafetyOff,
        r"보안\s*(?:검사|경고|검증|점검|스캔|기능|정책)(?:을|를)?\s*(?:비활성화|끄|무시|건너뛰|우회)",
    ),
    order(
        "ko",
        AskSecret,
        r"(?:비밀번호|패스워드|암호|시드\s*구문|복구\s*구문|개인\s*키|인증\s*코드|카드\s*번호)(?:을|를)?[^\n.!?;]*?(?:물어|요청|입력하도록|알려\s*달라고|요구)",
    ),
    // Vietnamese, Indonesian (and Malay), Polish, Ukrainian, Dutch, Czech,
    // Hebrew, Arabic, Hindi, Thai, Swahili and Tagalog: the orders that
    // hide an act, skip the user's consent or send to an address. Words
    // of scripts with no ASCII letters take no `\b` (the patterns match
    // bytes), and a negative prefix belongs to the order itself
    // ("đừng nói", "jangan beri tahu", "usimwambie").
    order(
        "vi",
        Conceal,
        r"(?:không|đừng|chớ)\s+(?:được\s+)?(?:nhắc|nói|báo|kể|tiết\s+lộ|đề\s+cập|cho\s+biết|thông\s+báo)[^\n.!?;]*?người\s+dùng|giấu\s[^\n.!?;]*?(?:khỏi|với)\s+người\s+dùng|không\s+(?:để|cho)\s+người\s+dùng\s+(?:biết|thấy)",
    ),
    order(
        "vi",
        SkipConfirmation,
        r"không\s+(?:cần\s+)?(?:hỏi|xin)\s+(?:xin\s+)?(?:phép|ý\s+kiến|xác\s+nhận)|không\s+cần\s+(?:xác\s+nhận|sự\s+đồng\s+ý|sự\s+cho\s+phép)|đã\s+được\s+(?:phê\s+duyệt|chấp\s+thuận)\s+trước",
    ),
    order(
        "vi",
        Exfiltrate,
        r"(?:gửi|tải\s+lên|đăng\s+lên|chuyển\s+tiếp)\s[^\n]*?(?:đến|tới|lên|vào|cho)\s+(?:địa\s+chỉ\s+)?`?(?:https?://|[a-z0-9._%+-]+@[a-z0-9-]+\.)",
    ),
    order(
        "id",
        Conceal,
        r"\bjangan\s+(?:pernah\s+)?(?:beri\s*tahu|memberi\s*tahu|beritahukan|sebutkan|menyebutkan|ungkapkan|ceritakan|informasikan|laporkan|bilang)[^\n.!?;]*?pengguna|\btanpa\s+(?:memberi\s*tahu|sepengetahuan|memberitahukan\s+kepada)\s+pengguna|\bsembunyikan\b[^\n.!?;]*?\bdari\s+pengguna",
    ),
    order(
        "id",
        SkipConfirmation,
        r"\btanpa\s+(?:meminta|menunggu|minta)\s+(?:konfirmasi|persetujuan|izin)|\btidak\s+perlu\s+(?:meminta\s+|minta\s+)?(?:konfirmasi|persetujuan|izin)|\bjangan\s+(?:meminta|minta|tanyakan)\s+(?:konfirmasi|persetujuan|izin)|\bsudah\s+disetujui\s+sebelumnya",
    ),
    order(
        "id",
        Exfiltrate,
        r"\b(?:kirim|kirimkan|unggah|unggahkan|teruskan)\b[^\n]*?\bke\s+(?:alamat\s+)?`?(?:https?://|[a-z0-9._%+-]+@[a-z0-9-]+\.)",
    ),
    order(
        "id",
        RemoteLoad,
        r"\bversi\s+(?:kanonik|resmi|terbaru|asli|sebenarnya)\s+(?:dari\s+)?(?:skill|instruksi|petunjuk)\b[^\n]*?https?://|\binstruksi\s+di\s+sana\s+(?:menggantikan|mengesampingkan|lebih\s+diutamakan)",
    ),
    order(
        "pl",
        Conceal,
        r"\bnie\s+(?:informuj|mów|wspominaj|pokazuj|ujawniaj|zdradzaj|powiadamiaj|informujcie|mówcie)[^\n.!?;]*?użytkownik|\bbez\s+(?:wiedzy|informowania|powiadamiania)\s+użytkownik|\bukryj[^\n.!?;]*?\bprzed\s+użytkownik",
    ),
    order(
        "pl",
        SkipConfirmation,
        r"\bbez\s+(?:pytania|proszenia)\s+(?:użytkownika\s+)?o\s+(?:zgodę|potwierdzenie|pozwolenie)|\bnie\s+(?:pytaj|proś)\s+(?:użytkownika\s+)?o\s+(?:zgodę|potwierdzenie|pozwolenie)|\bzostało\s+(?:już\s+)?(?:wcześniej\s+)?zatwierdzone\s+przez",
    ),
    order(
        "pl",
        Exfiltrate,
        r"\b(?:wyślij|prześlij|wrzuć|opublikuj|przekaż)[^\n]*?\s(?:na|do)\s+(?:adres\s+)?`?(?:https?://|[a-z0-9._%+-]+@[a-z0-9-]+\.)",
    ),
    order(
        "uk",
        Conceal,
        r"не\s+(?:кажи|кажіть|повідомляй|повідомляйте|говори|згадуй|згадуйте|показуй|розкривай|розповідай)[^\n.!?;]*?користувач|користувач(?:у|ам|еві)\s+(?:про\s+(?:це|цей\s+\S+)\s+)?(?:нічого\s+)?не\s+(?:кажи|кажіть|повідомляй|говори|згадуй|розповідай)|приховай(?:те)?\s[^\n.!?;]*?від\s+користувач|без\s+відома\s+користувач",
    ),
    order(
        "uk",
        SkipConfirmation,
        r"без\s+(?:запиту\s+)?(?:підтвердження|дозволу|згоди)\s+користувач|не\s+(?:питай|питайте|запитуй|запитуйте|чекай)\s+(?:у\s+користувача\s+)?(?:підтвердження|дозволу|згоди)",
    ),
    order(
        "uk",
        Exfiltrate,
        r"(?:надішли|надішліть|відправ|відправте|завантаж|завантажте|перешли|передай)\s[^\n]*?(?:на|до|за\s+адресою)\s+`?(?:https?://|[a-z0-9._%+-]+@[a-z0-9-]+\.)",
    ),
    order(
        "nl",
        Conceal,
        r"\b(?:vertel|zeg|meld|noem)\b[^\n.!?;]*?\bgebruiker\w*\b[^\n.!?;]*?\b(?:niet|niets)\b|\b(?:vertel|zeg|meld)\s+(?:niets|niet)\b[^\n.!?;]*?\bgebruiker|\bzonder\s+(?:de\s+)?gebruiker\s+(?:te\s+informeren|in\s+te\s+lichten|op\s+de\s+hoogte\s+te\s+(?:brengen|stellen)|te\s+waarschuwen)|\bverberg\b[^\n.!?;]*?\bvoor\s+de\s+gebruiker",
    ),
    order(
        "nl",
        SkipConfirmation,
        r"\bzonder\s+(?:om\s+)?(?:bevestiging|toestemming|goedkeuring)\s+te\s+vragen|\bvraag\s+(?:niet|nooit)\s+(?:om\s+)?(?:bevestiging|toestemming|goedkeuring)|\bzonder\s+(?:de\s+)?gebruiker\s+te\s+vragen|\bis\s+(?:al\s+)?vooraf\s+goedgekeurd",
    ),
    order(
        "nl",
        Exfiltrate,
        r"\b(?:stuur|verstuur|upload|publiceer)\b[^\n]*?\b(?:naar|op)\s+(?:het\s+adres\s+)?`?(?:https?://|[a-z0-9._%+-]+@[a-z0-9-]+\.)",
    ),
    order(
        "cs",
        Conceal,
        r"\b(?:neříkej|neinformuj|nezmiňuj|neukazuj|neprozrazuj|neoznamuj)[^\n.!?;]*?uživatel|\bbez\s+vědomí\s+uživatel|\bpřed\s+uživatelem\s+(?:to\s+)?(?:skryj|zataj)",
    ),
    order(
        "cs",
        SkipConfirmation,
        r"\bbez\s+(?:ptaní|potvrzení|souhlasu|svolení)\s+uživatel|\bneptej\s+se\s+(?:uživatele\s+)?(?:na\s+)?(?:potvrzení|souhlas|svolení)",
    ),
    order(
        "cs",
        Exfiltrate,
        r"\b(?:odešli|pošli|nahraj|přepošli)[^\n]*?\s(?:na|do)\s+(?:adresu\s+)?`?(?:https?://|[a-z0-9._%+-]+@[a-z0-9-]+\.)",
    ),
    order(
        "he",
        Conceal,
        r"(?:אל|לא)\s+(?:תזכיר|תזכירי|תספר|תספרי|תגיד|תגידי|תודיע|תודיעי|תחשוף|תציין|לספר|להזכיר|להודיע|לציין)[^\n.!?;]*?(?:משתמש|בסיכום)|(?:בלי|ללא|מבלי)\s+(?:לספר|להודיע|לעדכן|ליידע)\s+(?:ל|את\s+ה)משתמש|הסתר[^\n.!?;]*?מה?משתמש",
    ),
    order(
        "he",
        SkipConfirmation,
        r"(?:אין\s+צורך|בלי|ללא|מבלי)\s+(?:לבקש\s+|לקבל\s+)?(?:אישור|רשות|הסכמה)|(?:אל|לא)\s+(?:תבקש|תבקשי)\s+(?:אישור|רשות)",
    ),
    order(
        "he",
        Exfiltrate,
        r"(?:שלח|שלחי|העלה|העלי)\s[^\n]*?(?:ל|אל\s+|לכתובת\s+)`?(?:https?://|[a-z0-9._%+-]+@[a-z0-9-]+\.)",
    ),
    // Greek: the imperative first, `μην` + subjunctive forbids.
    order(
        "el",
        Conceal,
        r"μην\s+(?:το\s+|τα\s+|του\s+)?(?:αναφέρεις|αναφέρετε|πεις|πείτε|δείξεις|δείξετε|ενημερώσεις|ενημερώσετε|αποκαλύψεις|αποκαλύψετε)[^\n.!?;]*?χρήστ|χωρίς\s+να\s+(?:το\s+)?(?:ενημερώσεις|ενημερώσετε|πεις|πείτε)\s+(?:στον\s+|τον\s+)?χρήστ|κρύψε[^\n.!?;]*?από\s+τον\s+χρήστ",
    ),
    order(
        "el",
        SkipConfirmation,
        r"χωρίς\s+να\s+(?:ρωτήσεις|ρωτήσετε|ζητήσεις|ζητήσετε)(?:\s+(?:άδεια|επιβεβαίωση|έγκριση))?|μη\s+ζητήσεις\s+(?:άδεια|επιβεβαίωση|έγκριση)",
    ),
    order(
        "el",
        Exfiltrate,
        r"(?:στείλε|στείλτε|ανέβασε|ανεβάστε|προώθησε|προωθήστε|μετάφερε)\s[^\n]*?(?:στη|στην|στο|σε|προς)\s+(?:τη\s+)?(?:διεύθυνση\s+)?`?(?:https?://|[a-z0-9._%+-]+@[a-z0-9-]+\.)",
    ),
    // Persian: the verb last; `نگو` (do not say), `بفرست` (send).
    order(
        "fa",
        Conceal,
        r"(?:به\s+کاربر|کاربر\s+را)\s+[^\n.!?;]*?(?:نگو|نگویید|اطلاع\s+نده|اطلاع\s+ندهید|خبر\s+نده)|بدون\s+(?:اطلاع|آگاهی)\s+کاربر|از\s+کاربر\s+پنهان",
    ),
    order(
        "fa",
        SkipConfirmation,
        r"بدون\s+(?:پرسیدن|اجازه|تأیید|تایید)(?:\s+از\s+کاربر)?|از\s+کاربر\s+(?:نپرس|اجازه\s+نگیر)",
    ),
    order(
        "fa",
        Exfiltrate,
        r"(?:https?://\S+|[a-z0-9._%+-]+@[a-z0-9-]+\.\S+)\s+(?:بفرست|بفرستید|ارسال\s+کن|ارسال\s+کنید|آپلود\s+کن|آپلود\s+کنید)",
    ),
    order(
        "ar",
        Conceal,
        r"(?:لا|دون\s+أن|بدون\s+أن)\s+(?:تخبر|تُخبر|تذكر|تُعلم|تعلم|تبلغ|تُبلغ)[^\n.!?;]*?المستخدم|دون\s+(?:علم|إخبار|إعلام|إبلاغ)\s+المستخدم|أخف[^\n.!?;]*?عن\s+المستخدم",
    ),
    order(
        "ar",
        SkipConfirmation,
        r"(?:دون|بدون|من\s+غير)\s+(?:طلب\s+|انتظار\s+)?(?:تأكيد|إذن|موافقة)|لا\s+(?:تطلب|داعي\s+لطلب)\s+(?:تأكيد|إذن|موافقة)",
    ),
    order(
        "ar",
        Exfiltrate,
        r"(?:أرسل|ارسل|ارفع|حمّل)\s[^\n]*?(?:إلى|الى|على)\s+(?:العنوان\s+)?`?(?:https?://|[a-z0-9._%+-]+@[a-z0-9-]+\.)",
    ),
    order(
        "hi",
        Conceal,
        r"(?:उपयोगकर्ता|यूज़र|यूजर)\s+को\s+[^\n.!?;]*?(?:न|मत|नहीं)\s+(?:बताएं|बताएँ|बताना|बताओ|बताइए)|(?:उपयोगकर्ता|यूज़र|यूजर)\s+को\s+(?:बताए|बताये)\s+बिना|(?:उपयोगकर्ता|यूज़र|यूजर)\s+से\s+(?:छिपाएं|छिपाओ|छुपाएं)",
    ),
    order(
        "hi",
        SkipConfirmation,
        r"(?:पुष्टि|अनुमति|इजाज़त|इजाजत)\s+(?:लिए|मांगे|माँगे|पूछे)\s+बिना|(?:पुष्टि|अनुमति)\s+(?:न|मत)\s+(?:मांगें|माँगें|लें)",
    ),
    order(
        "th",
        Conceal,
        r"(?:ไม่ต้อง|อย่า|ห้าม)(?:บอก|แจ้ง|เล่า|เปิดเผย|พูดถึง|กล่าวถึง)[^\n.!?;]*?ผู้ใช้|โดยไม่(?:ต้อง)?(?:บอก|แจ้ง)(?:ให้)?ผู้ใช้|ปกปิด[^\n.!?;]*?ผู้ใช้",
    ),
    order(
        "th",
        SkipConfirmation,
        r"(?:ไม่ต้อง|โดยไม่ต้อง|ไม่จำเป็นต้อง)(?:ขอ)?(?:อนุญาต|ยืนยัน|ความยินยอม|การยืนยัน)|(?:ไม่ต้อง|อย่า)ถามผู้ใช้",
    ),
    order(
        "sw",
        Conceal,
        r"\b(?:usimwambie|usimjulishe|usimweleze|usiwaambie|usiwajulishe)\b[^\n.!?;]*?\b(?:mtumiaji|watumiaji)|\bbila\s+(?:kumwambia|kumjulisha|kuwaambia|kuwajulisha)\s+(?:mtumiaji|watumiaji)|\bficha\b[^\n.!?;]*?\bkwa\s+mtumiaji",
    ),
    order(
        "sw",
        SkipConfirmation,
        r"\bbila\s+(?:kuomba\s+|kusubiri\s+)?(?:ruhusa|idhini|uthibitisho|kibali)|\busiombe\s+(?:ruhusa|idhini|uthibitisho)",
    ),
    order(
        "sw",
        SafetyOff,
        r"\bzima\b[^\n.!?;]*?\b(?:ulinzi|defender|antivirus|firewall|ukaguzi\s+wa\s+usalama)",
    ),
    order(
        "sw",
        Exfiltrate,
        r"\b(?:tuma|pakia|peleka)\b[^\n]*?\b(?:kwa|kwenye)\s+(?:anwani\s+)?`?(?:https?://|[a-z0-9._%+-]+@[a-z0-9-]+\.)",
    ),
    order(
        "tl",
        Conceal,
        r"\bhuwag\s+(?:mo\s+)?(?:itong\s+|ito\s+|ninyong\s+)?(?:sabihin|banggitin|ipaalam|ipaliwanag|ipakita|ibunyag)[^\n.!?;]*?\b(?:user|gumagamit)|\bnang\s+hindi\s+(?:sinasabi|ipinapaalam|nalalaman)\s+(?:sa\s+|ng\s+)?(?:user|gumagamit)",
    ),
    order(
        "tl",
        SkipConfirmation,
        r"\bnang\s+hindi\s+(?:nagtatanong|humihingi\s+ng\s+(?:pahintulot|kumpirmasyon))|\bhuwag\s+(?:nang\s+)?(?:magtanong|humingi\s+ng\s+(?:pahintulot|kumpirmasyon))",
    ),
    order(
        "tl",
        Exfiltrate,
        r"\b(?:ipadala|i-upload|iupload|ipasa)\b[^\n]*?\bsa\s+`?(?:https?://|[a-z0-9._%+-]+@[a-z0-9-]+\.)",
    ),
    // Instructions kept at an address, to be fetched and followed, in the
    // other languages of this list (English's is above).
    order(
        "es",
        RemoteLoad,
        r"\binstrucciones\s+(?:reales|vigentes|actuales|oficiales|completas)\b[^\n]*?\b(?:est(?:á|a)n|se\s+encuentran)\s+en\s+[<`(\[]?https?://|\bdesc(?:á|a)rga(?:las|los|la|lo)\b[^\n]*?\bs(?:í|i)gue(?:las|los|la|lo)\b",
    ),
    order(
        "de",
        RemoteLoad,
        r"\b(?:aktuellen|echten|gültigen|offiziellen|vollständigen)\s+anweisungen\b[^\n]*?\b(?:liegen|stehen|findest\s+du)\s+(?:unter|auf|bei)\s+[<`(\[]?https?://|\blade\s+(?:sie|diese)\b[^\n]*?\bbefolge\s+(?:sie|diese)\b",
    ),
    order(
        "fr",
        RemoteLoad,
        r"\b(?:vraies|véritables|dernières|instructions\s+officielles)\s+(?:instructions\s+)?[^\n]*?\bsont\s+(?:sur|à|disponibles\s+(?:sur|à))\s+`?https?://|\btélécharge[sz]?-les\b[^\n]*?\bsui[sv]\w*-les\b",
    ),
    order(
        "pt",
        RemoteLoad,
        r"\binstruções\s+(?:reais|atuais|oficiais|completas)\b[^\n]*?\best(?:ão|ao)\s+em\s+[<`(\[]?https?://|\bbaixe-as\b[^\n]*?\bsiga-as\b",
    ),
    order(
        "it",
        RemoteLoad,
        r"\bistruzioni\s+(?:reali|aggiornate|ufficiali|complete)\b[^\n]*?\bsi\s+trovano\s+(?:su|a|in)\s+[<`(\[]?https?://|\bscaricale\b[^\n]*?\bseguile\b",
    ),
];

/// Words that make the verb after them a prohibition, in each language:
/// a sentence's clause holding one before the order negates it.
pub(crate) const NEGATIONS: &[&str] = &[
    // English.
    "never",
    "not",
    "don't",
    "dont",
    "doesn't",
    "mustn't",
    "shouldn't",
    "cannot",
    "can't",
    "won't",
    "avoid",
    "refuse",
    "refuse to",
    "no",
    "nor",
    "instead of",
    "rather than",
    "forbidden",
    "prohibited",
    // Spanish, Portuguese, Italian.
    "nunca",
    "jamás",
    "jamas",
    "evita",
    "evite",
    "prohibido",
    "não",
    "nao",
    "jamais",
    "nem",
    "proibido",
    "non",
    "mai",
    "vietato",
    // French.
    "ne",
    "n'",
    "n’",
    "interdit",
    // German.
    "nicht",
    "nie",
    "niemals",
    "kein",
    "keine",
    "keinesfalls",
    "verboten",
    // Russian.
    "не",
    "никогда",
    "нельзя",
    "запрещено",
    // Chinese.
    "不要",
    "别",
    "別",
    "不得",
    "不能",
    "不可",
    "切勿",
    "勿",
    "禁止",
    "严禁",
    "嚴禁",
    "绝不",
    "絕不",
    "从不",
    "從不",
    "不准",
    "不应",
    "不應",
    "决不",
    "決不",
    "避免",
    "不许",
    "不許",
    // Japanese, Korean (whose orders end positively: these are adverbs).
    "決して",
    "절대",
];

/// Words after the order that negate it: German puts `nicht` last (a
/// word of the clause after the order), Japanese and Korean end the verb
/// with it (right after the order).
pub(crate) const NEGATIONS_AFTER: &[(&str, &[&str])] = &[
    ("de", &["nicht", "niemals", "keinesfalls"]),
    ("ja", &["しない", "しては", "にしない", "ないで"]),
    (
        "ko",
        &["하지 마", "하지 말", "하지 않", "지 마", "지 말", "지 않"],
    ),
];

/// Phrases that hold a negation but order something ("don't forget to").
pub(crate) const NOT_NEGATIONS: &[&str] = &[
    "don't hesitate",
    "do not hesitate",
    "don't forget",
    "do not forget",
    "never forget",
    "never fail",
    "not only",
    "no matter",
    "no olvides",
    "não esqueça",
    "nao esqueca",
    "n'oubliez pas",
    "n'oublie pas",
    "vergiss nicht",
    "non dimenticare",
    "не забудь",
    "не забывайте",
    "不要忘记",
    "别忘了",
    "不要忘記",
    "別忘了",
];

/// Words that make what follows them a mention: the sentence is about an
/// attack (a detector's description, a guide's example), not an order.
pub(crate) const MENTIONS: &[&str] = &[
    // English.
    "such as",
    "like",
    "e.g",
    "for example",
    "for instance",
    "detect",
    "detects",
    "flag",
    "flags",
    "block",
    "blocks",
    "catch",
    "catches",
    "recognize",
    "recognise",
    "attempt",
    "attempts",
    "attacker",
    "attackers",
    "attack",
    "attacks",
    "injection",
    "injections",
    "jailbreak",
    "malicious",
    "suspicious",
    "phrase",
    "phrases",
    "pattern",
    "patterns",
    "example",
    "examples",
    "says",
    "claiming",
    "known as",
    "called",
    "payload",
    "indicator",
    "indicators",
    "red flag",
    "red flags",
    "warning sign",
    "warning signs",
    // Spanish, Portuguese, Italian, French, German.
    "como",
    "por ejemplo",
    "por exemplo",
    "detecta",
    "inyección",
    "injeção",
    "ataque",
    "ataques",
    "come",
    "ad esempio",
    "rileva",
    "iniezione",
    "attacco",
    "comme",
    "par exemple",
    "détecte",
    "attaque",
    "wie",
    "zum beispiel",
    "z. b.",
    "z.b.",
    "erkennt",
    "angriff",
    "angriffe",
    "injektion",
    // Russian.
    "как",
    "например",
    "обнаруживает",
    "инъекци",
    "атак",
    // Chinese, Japanese, Korean.
    "例如",
    "比如",
    "诸如",
    "諸如",
    "检测",
    "檢測",
    "注入",
    "攻击",
    "攻擊",
    "例えば",
    "検出",
    "インジェクション",
    "攻撃",
    "예를 들어",
    "탐지",
    "인젝션",
    "공격",
];

/// Words just after an order that make it a mention ("「…」のような文").
pub(crate) const MENTIONS_AFTER: &[&str] = &[
    "のような",
    "などの",
    "といった",
    "という",
    "같은",
    "등의",
    "之类",
    "之類",
    "等攻击",
    "等攻擊",
    "-style",
    " style",
    " attacks",
    " attack",
    " injection",
];

/// Verbs that tell the agent to use what follows them (a quoted phrase or
/// a code span): what they quote is an order, not a mention.
pub(crate) const USE_VERBS: &[&str] = &[
    "run",
    "execute",
    "paste",
    "type",
    "enter",
    "say",
    "output",
    "print",
    "respond with",
    "reply with",
    "answer with",
    "write",
    "add",
    "append",
    "include",
    "insert",
    "send",
    "follow",
    "obey",
    "apply",
    "use",
    "tell the model",
    "prepend",
    "ejecuta",
    "pega",
    "escribe",
    "responde con",
    "exécute",
    "exécutez",
    "colle",
    "collez",
    "tape",
    "tapez",
    "réponds avec",
    "répondez avec",
    "führe",
    "füge",
    "gib",
    "antworte mit",
    "esegui",
    "incolla",
    "scrivi",
    "rispondi con",
    "выполни",
    "вставь",
    "введи",
    "ответь",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_order_compiles_lowercase() {
        for o in ORDERS {
            assert!(
                regex::bytes::Regex::new(&format!("(?-u){}", o.regex)).is_ok(),
                "{}: {}",
                o.lang,
                o.regex
            );
            // Escapes aside (`\s`, `\b`), the patterns read lowercased text.
            let plain: String = o
                .regex
                .replace(r"\s", "")
                .replace(r"\S", "")
                .replace(r"\b", "");
            assert_eq!(plain, plain.to_lowercase(), "{}", o.regex);
        }
    }
}
